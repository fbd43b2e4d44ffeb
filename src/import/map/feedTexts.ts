import { sameLanguage } from "../../load/formats/languageTag.js";
import { linkUriProblem } from "../../load/formats/linkUri.js";
import { mediaTypeProblem } from "../../load/formats/mediaType.js";
import { DESCRIPTION_LENGTHS, NAME_LENGTHS } from "../../load/formats/spiFormat.js";
import type { Description, Link, Names, Translation } from "../../load/schema/fields.js";
import type { ImportNote } from "../importNote.js";
import type { FeedDescriptions, FeedLink, FeedNames, LocalisedText } from "../read/feedModel.js";

/**
 * Names and descriptions as the data folder holds them: one text of each kind, in the
 * language of the document (the owner's language). Texts in other languages and texts over
 * SPI's limits are noted.
 */

/** The text of this kind in `language`, else the first; the others are noted. */
function pickText(
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
function importNames(
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

function importDescription(
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
function importKeywords(
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

/** What a provider, service or show publishes as text. */
export interface FeedTexts {
  names: FeedNames;
  descriptions: FeedDescriptions;
  keywords: LocalisedText[];
  links: FeedLink[];
}

/** The owner's texts in its own language, and the same texts in every other language. */
export interface ImportedTexts {
  name: Names | undefined;
  description: Description | undefined;
  keywords: string[];
  /** In the owner's language: the caller decides which is a show's website. */
  links: FeedLink[];
  translations: Record<string, Translation>;
}

/**
 * Splits an owner's texts by language: those in `ownLanguage` are its own fields, every other
 * language (in the order the document first uses it) becomes a translation.
 */
export function importTexts(
  texts: FeedTexts,
  ownLanguage: string,
  origin: string,
  notes: ImportNote[],
): ImportedTexts {
  const inLanguage = <T extends { language: string }>(list: readonly T[], language: string) =>
    list.filter((t) => sameLanguage(t.language, language));
  const only = (language: string): FeedTexts => ({
    names: {
      short: inLanguage(texts.names.short, language),
      medium: inLanguage(texts.names.medium, language),
      long: inLanguage(texts.names.long, language),
    },
    descriptions: {
      short: inLanguage(texts.descriptions.short, language),
      long: inLanguage(texts.descriptions.long, language),
    },
    keywords: inLanguage(texts.keywords, language),
    links: inLanguage(texts.links, language),
  });
  const own = only(ownLanguage);
  const languages: string[] = [];
  for (const { language } of [
    ...texts.names.short,
    ...texts.names.medium,
    ...texts.names.long,
    ...texts.descriptions.short,
    ...texts.descriptions.long,
    ...texts.keywords,
    ...texts.links,
  ]) {
    if (!sameLanguage(language, ownLanguage) && !languages.some((l) => sameLanguage(l, language))) {
      languages.push(language);
    }
  }
  const translations: Record<string, Translation> = {};
  for (const language of languages) {
    const other = only(language);
    const short = pickText(other.names.short, language, "shortName", origin, notes);
    const medium = pickText(other.names.medium, language, "mediumName", origin, notes);
    const long = pickText(other.names.long, language, "longName", origin, notes);
    const name = {
      ...(short
        ? { short: withinLimit(short, NAME_LENGTHS.short, "shortName", origin, notes) }
        : {}),
      ...(medium
        ? { medium: withinLimit(medium, NAME_LENGTHS.medium, "mediumName", origin, notes) }
        : {}),
      ...(long ? { long: withinLimit(long, NAME_LENGTHS.long, "longName", origin, notes) } : {}),
    };
    const description = importDescription(other.descriptions, language, origin, notes);
    const keywords = importKeywords(other.keywords, language, origin, notes);
    const links = importLinks(other.links, notes);
    translations[language] = {
      ...(Object.keys(name).length > 0 ? { name } : {}),
      ...(description ? { description } : {}),
      ...(keywords.length > 0 ? { keywords } : {}),
      ...(links.length > 0 ? { links } : {}),
    };
  }
  const hasName = own.names.short.length + own.names.medium.length + own.names.long.length > 0;
  return {
    name: hasName ? importNames(own.names, ownLanguage, origin, notes) : undefined,
    description: importDescription(own.descriptions, ownLanguage, origin, notes),
    keywords: importKeywords(own.keywords, ownLanguage, origin, notes),
    links: own.links,
    translations,
  };
}

/**
 * Links as the data holds them; one whose URI the data refuses is noted. An empty description
 * is left out (it says nothing); one the data cannot hold, or a media type it refuses, is noted.
 */
export function importLinks(links: readonly FeedLink[], notes: ImportNote[]): Link[] {
  return links.flatMap((link): Link[] => {
    const problem = linkUriProblem(link.uri);
    if (problem !== undefined) {
      notes.push({ origin: link.origin, message: `link not imported: ${problem}` });
      return [];
    }
    const description = link.description?.trim() || undefined;
    const keptDescription =
      description !== undefined && Array.from(description).length > LINK_DESCRIPTION_LENGTH
        ? undefined
        : description;
    if (description !== undefined && keptDescription === undefined) {
      notes.push({
        origin: link.origin,
        message: `the link's description is over ${LINK_DESCRIPTION_LENGTH} characters: not imported`,
      });
    }
    const typeProblem = link.mimeValue === undefined ? undefined : mediaTypeProblem(link.mimeValue);
    if (typeProblem !== undefined) {
      notes.push({
        origin: link.origin,
        message: `the link's mimeValue is not imported: ${typeProblem}`,
      });
    }
    return [
      {
        uri: link.uri,
        ...(keptDescription !== undefined ? { description: keptDescription } : {}),
        ...(link.mimeValue !== undefined && typeProblem === undefined
          ? { mimeValue: link.mimeValue }
          : {}),
      },
    ];
  });
}

/** TS 102 818 table 12: a link's description is at most 180 characters. */
const LINK_DESCRIPTION_LENGTH = 180;
