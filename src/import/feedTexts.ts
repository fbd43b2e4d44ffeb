import type { Description, Names } from "../load/inputSchema.js";
import { DESCRIPTION_LENGTHS, NAME_LENGTHS } from "../load/spiFormat.js";
import type { FeedDescriptions, FeedNames, LocalisedText } from "./feedModel.js";
import type { ImportNote } from "./importNote.js";

/**
 * Names and descriptions as the data folder holds them: one text of each kind, in the
 * language of the document (the owner's language). Texts in other languages and texts over
 * SPI's limits are noted.
 */

/** The text of this kind in `language`, else the first; the others are noted. */
export function pickText(
  texts: readonly LocalisedText[],
  language: string,
  what: string,
  origin: string,
  notes: ImportNote[],
): string | undefined {
  if (texts.length === 0) return undefined;
  const chosen = texts.find((t) => t.language === language) ?? texts[0];
  for (const other of texts) {
    if (other === chosen || other.text === chosen?.text) continue;
    notes.push({
      origin,
      message: `${what} in ${other.language} ("${excerpt(other.text)}") is not imported: one ${what} per language`,
    });
  }
  return chosen?.text;
}

/** At most `limit` characters (code points); longer text is cut with `…` and noted. */
export function withinLimit(
  text: string | undefined,
  limit: number,
  what: string,
  origin: string,
  notes: ImportNote[],
): string | undefined {
  if (text === undefined) return undefined;
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  notes.push({
    origin,
    message: `${what} is ${chars.length} characters long; cut to SPI's ${limit}`,
  });
  return `${chars
    .slice(0, limit - 1)
    .join("")
    .trimEnd()}…`;
}

export function excerpt(text: string): string {
  const chars = Array.from(text);
  return chars.length <= 40 ? text : `${chars.slice(0, 39).join("")}…`;
}

/**
 * The names for the data folder. The long name is required there: without one, the medium
 * (or short) name stands in, and the build will publish it as a longName too.
 */
export function importNames(
  names: FeedNames,
  language: string,
  origin: string,
  notes: ImportNote[],
): Names | undefined {
  const short = pickText(names.short, language, "shortName", origin, notes);
  const medium = pickText(names.medium, language, "mediumName", origin, notes);
  let long = pickText(names.long, language, "longName", origin, notes);
  if (long === undefined) {
    long = medium ?? short;
    if (long === undefined) return undefined;
    notes.push({
      origin,
      message: `no longName: "${excerpt(long)}" is used as the long name too`,
    });
  }
  return {
    ...(short !== undefined
      ? { short: withinLimit(short, NAME_LENGTHS.short, "shortName", origin, notes) }
      : {}),
    ...(medium !== undefined
      ? { medium: withinLimit(medium, NAME_LENGTHS.medium, "mediumName", origin, notes) }
      : {}),
    long: withinLimit(long, NAME_LENGTHS.long, "longName", origin, notes) ?? long,
  };
}

export function importDescription(
  descriptions: FeedDescriptions,
  language: string,
  origin: string,
  notes: ImportNote[],
): Description | undefined {
  const short = withinLimit(
    pickText(descriptions.short, language, "shortDescription", origin, notes),
    DESCRIPTION_LENGTHS.short,
    "shortDescription",
    origin,
    notes,
  );
  const long = withinLimit(
    pickText(descriptions.long, language, "longDescription", origin, notes),
    DESCRIPTION_LENGTHS.long,
    "longDescription",
    origin,
    notes,
  );
  if (short === undefined && long === undefined) return undefined;
  return { ...(short !== undefined ? { short } : {}), ...(long !== undefined ? { long } : {}) };
}

/** Keywords in `language` (else in the first language they are given in); the rest noted. */
export function importKeywords(
  keywords: readonly LocalisedText[],
  language: string,
  origin: string,
  notes: ImportNote[],
): string[] {
  if (keywords.length === 0) return [];
  const chosen = keywords.some((k) => k.language === language)
    ? language
    : (keywords[0]?.language ?? language);
  const others = keywords.filter((k) => k.language !== chosen);
  if (others.length > 0) {
    notes.push({
      origin,
      message: `keywords in ${[...new Set(others.map((k) => k.language))].join(", ")} are not imported: one set of keywords per language`,
    });
  }
  return [...new Set(keywords.filter((k) => k.language === chosen).map((k) => k.text))];
}
