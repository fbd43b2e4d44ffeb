import { genreTermOf } from "../load/formats/genreTerm.js";
import type { Genre, Geolocation } from "../load/model/broadcaster.js";
import { deriveSomeNames } from "./deriveNames.js";
import type { TextVersion } from "./textVersions.js";
import type { XmlWriter } from "./xmlWriter.js";

// The elements PI and SI documents share, written with an XmlWriter.

export const SPI_NAMESPACE = "http://www.worlddab.org/schemas/spi/31";

/** Attributes without the ones that are not set, so optional values simply disappear. */
export function attributes(
  values: Record<string, string | number | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) out[name] = String(value);
  }
  return out;
}

function textElement(
  xml: XmlWriter,
  name: string,
  text: string,
  attrs: Record<string, string> = {},
) {
  xml.ele(name, attrs).txt(text).up();
}

/**
 * The names in every language, each length together (all shortNames, then all mediumNames,
 * then all longNames): one pass of the schema's name group, which for a service needs a
 * shortName and a mediumName in it and for a programme a mediumName.
 */
export function writeNames(xml: XmlWriter, versions: readonly TextVersion[]) {
  const names = versions.map((v) => deriveSomeNames(v.name ?? {}));
  for (const length of ["short", "medium", "long"] as const) {
    versions.forEach(({ lang }, i) => {
      const text = names[i]?.[length];
      if (text) textElement(xml, `${length}Name`, text, lang);
    });
  }
}

/** SPI asks for one item per mediaDescription; short before long, as in the seed. */
export function writeDescriptions(xml: XmlWriter, versions: readonly TextVersion[]) {
  for (const length of ["short", "long"] as const) {
    for (const { description, lang } of versions) {
      const text = description?.[length];
      if (!text) continue;
      xml.ele("mediaDescription");
      textElement(xml, `${length}Description`, text, lang);
      xml.up();
    }
  }
}

export function writeMultimedia(
  xml: XmlWriter,
  attrs: Record<string, string | number | undefined>,
) {
  xml.ele("mediaDescription").ele("multimedia", attributes(attrs)).up().up();
}

/** Genre labels are in their owner's language: `lang` tags them when that is not the document's. */
export function writeGenres(
  xml: XmlWriter,
  genres: readonly Genre[],
  lang: Readonly<Record<string, string>> = {},
) {
  for (const genre of genres) {
    textElement(
      xml,
      "genre",
      // The load checked the href, so its scheme's list has a label for it.
      genre.name ?? genreTermOf(genre.href)?.label ?? genre.href,
      attributes({ href: genre.href, type: genre.type ?? "main", ...lang }),
    );
  }
}

export function writeKeywords(xml: XmlWriter, versions: readonly TextVersion[]) {
  for (const { keywords, lang } of versions) {
    if (keywords.length > 0) textElement(xml, "keywords", keywords.join(", "), lang);
  }
}

export function writeLinks(xml: XmlWriter, versions: readonly TextVersion[]) {
  for (const { links, lang } of versions) {
    for (const link of links) {
      xml
        .ele(
          "link",
          attributes({
            uri: link.uri,
            mimeValue: link.mimeValue,
            ...lang,
            description: link.description,
          }),
        )
        .up();
    }
  }
}

/** geoRSS lists: "latitude longitude", pairs separated by spaces. */
export function writeGeolocation(xml: XmlWriter, geolocation: Geolocation | undefined) {
  if (!geolocation) return;
  xml.ele("geolocation");
  for (const country of geolocation.countries) textElement(xml, "country", country);
  if (geolocation.point) textElement(xml, "point", geolocation.point.join(" "));
  if (geolocation.polygon) {
    textElement(xml, "polygon", geolocation.polygon.map((point) => point.join(" ")).join(" "));
  }
  xml.up();
}
