import type { Description, Genre, Link } from "../load/broadcaster.js";
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

export function textElement(
  xml: XmlWriter,
  name: string,
  text: string,
  attrs: Record<string, string> = {},
) {
  xml.ele(name, attrs).txt(text).up();
}

/** SPI asks for one item per mediaDescription; short before long, as in the seed. */
export function writeDescriptions(xml: XmlWriter, description: Description | undefined) {
  if (description?.short) {
    xml.ele("mediaDescription");
    textElement(xml, "shortDescription", description.short);
    xml.up();
  }
  if (description?.long) {
    xml.ele("mediaDescription");
    textElement(xml, "longDescription", description.long);
    xml.up();
  }
}

export function writeMultimedia(
  xml: XmlWriter,
  attrs: Record<string, string | number | undefined>,
) {
  xml.ele("mediaDescription").ele("multimedia", attributes(attrs)).up().up();
}

export function writeGenres(xml: XmlWriter, genres: readonly Genre[]) {
  for (const genre of genres) {
    textElement(
      xml,
      "genre",
      genre.name,
      attributes({ href: genre.href, type: genre.type ?? "main" }),
    );
  }
}

export function writeKeywords(xml: XmlWriter, keywords: readonly string[]) {
  if (keywords.length > 0) textElement(xml, "keywords", keywords.join(", "));
}

export function writeLinks(xml: XmlWriter, links: readonly Link[]) {
  for (const link of links) {
    xml
      .ele(
        "link",
        attributes({ uri: link.uri, mimeValue: link.mimeValue, description: link.description }),
      )
      .up();
  }
}
