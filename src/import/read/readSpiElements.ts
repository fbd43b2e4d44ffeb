import type {
  FeedDescriptions,
  FeedGenre,
  FeedImage,
  FeedLink,
  FeedNames,
  LocalisedText,
} from "./feedModel.js";
import type { XmlElement, XmlPosition } from "./xmlTree.js";

/** What the SI and PI readers share: names, media descriptions, genres, keywords, links. */

export function originOf(position: XmlPosition): string {
  return `${position.source}:${position.line}:${position.column}`;
}

/** The document's language: xml:lang on the root or its first child, as the XSD defaults it. */
export const DEFAULT_LANGUAGE = "en";

function localised(element: XmlElement): LocalisedText {
  return { text: element.text(), language: element.language() ?? DEFAULT_LANGUAGE };
}

function texts(parent: XmlElement, name: string): LocalisedText[] {
  return parent
    .children(name)
    .map(localised)
    .filter((t) => t.text !== "");
}

export function readNames(parent: XmlElement): FeedNames {
  return {
    short: texts(parent, "shortName"),
    medium: texts(parent, "mediumName"),
    long: texts(parent, "longName"),
  };
}

/**
 * A whole-number attribute. One that is not a whole number (`cost="Spain"`) stays unread, so
 * the report names it and its value as not imported.
 */
export function integerAttribute(element: XmlElement, name: string): number | undefined {
  const value = element.peekAttribute(name)?.trim();
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  element.attribute(name);
  return Number(value);
}

/** Every mediaDescription: descriptions and multimedia, one or several per element. */
export function readMediaDescriptions(parent: XmlElement): {
  descriptions: FeedDescriptions;
  images: FeedImage[];
} {
  const descriptions: FeedDescriptions = { short: [], long: [] };
  const images: FeedImage[] = [];
  for (const media of parent.children("mediaDescription")) {
    descriptions.short.push(...texts(media, "shortDescription"));
    descriptions.long.push(...texts(media, "longDescription"));
    for (const multimedia of media.children("multimedia")) {
      const url = multimedia.attribute("url");
      if (url === undefined) {
        multimedia.markRead();
        continue;
      }
      images.push({
        url: url.trim(),
        type: multimedia.attribute("type"),
        mimeValue: multimedia.attribute("mimeValue"),
        width: integerAttribute(multimedia, "width"),
        height: integerAttribute(multimedia, "height"),
        origin: originOf(multimedia.position),
      });
    }
  }
  return { descriptions, images };
}

export function readGenres(parent: XmlElement): FeedGenre[] {
  return parent.children("genre").flatMap((genre) => {
    const href = genre.attribute("href");
    if (href === undefined) return [];
    // EPG 1.x puts the label in a <name> child.
    const name = genre.child("name")?.text() || genre.text();
    return [
      {
        href: href.trim(),
        name: name === "" ? undefined : name,
        type: genre.attribute("type"),
        language: genre.language() ?? DEFAULT_LANGUAGE,
      },
    ];
  });
}

/** `keywords` hold comma-separated keywords; each element may be in its own language. */
export function readKeywords(parent: XmlElement): LocalisedText[] {
  return parent.children("keywords").flatMap((element) => {
    const language = element.language() ?? DEFAULT_LANGUAGE;
    return element
      .text()
      .split(",")
      .map((keyword) => keyword.trim())
      .filter((keyword) => keyword !== "")
      .map((text) => ({ text, language }));
  });
}

/** `uri`, or EPG 1.x's `url`, which some platforms still write in SPI 3.1 documents. */
export function readLinks(parent: XmlElement): FeedLink[] {
  return parent.children("link").flatMap((link) => {
    const uri = link.attribute("uri") ?? link.attribute("url");
    if (uri === undefined) return [];
    return [
      {
        uri: uri.trim(),
        description: link.attribute("description"),
        mimeValue: link.attribute("mimeValue"),
        language: link.language() ?? DEFAULT_LANGUAGE,
        origin: originOf(link.position),
      },
    ];
  });
}
