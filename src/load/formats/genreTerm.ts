import { quoted } from "../text/inputProblem.js";
import atmosphere from "./genres/AtmosphereCS.json" with { type: "json" };
import contentAlert from "./genres/ContentAlertCS.json" with { type: "json" };
import content from "./genres/ContentCS.json" with { type: "json" };
import format from "./genres/FormatCS.json" with { type: "json" };
import intendedAudience from "./genres/IntendedAudienceCS.json" with { type: "json" };
import intention from "./genres/IntentionCS.json" with { type: "json" };
import mediaType from "./genres/MediaTypeCS.json" with { type: "json" };
import origination from "./genres/OriginationCS.json" with { type: "json" };

/**
 * The classification schemes TS 102 818 §5.3 supports for genre, in its order, each with its
 * terms and their English labels (genres/SOURCE.txt): a receiver shows a genre by its term's
 * label and drops one it does not know, so a term must be one of these.
 */
const SCHEMES: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map(
  [
    intention,
    format,
    content,
    origination,
    intendedAudience,
    contentAlert,
    mediaType,
    atmosphere,
  ].map((list) => [list.scheme, list.terms]),
);

const GENRE_URN = /^urn:tva:metadata:cs:([A-Za-z]+):(\d{4}):([0-9]+(?:\.[0-9]+)*)$/;

export interface GenreTerm {
  scheme: string;
  year: string;
  term: string;
  /** The term's English label in the scheme. */
  label: string;
}

/** The scheme, term and label of a genre href, if it names a term of a supported scheme. */
export function genreTermOf(href: string): GenreTerm | undefined {
  const [, scheme = "", year = "", term = ""] = GENRE_URN.exec(href) ?? [];
  const label = SCHEMES.get(scheme)?.[term];
  return label === undefined ? undefined : { scheme, year, term, label };
}

/**
 * A feed's genre whose term its scheme's list lacks, filed under the scheme whose list holds
 * that term (each scheme's terms start with its own number: 4.2.1 is IntendedAudienceCS), with
 * the year it names; undefined when no list holds it, or it is no genre URN.
 */
export function refiledGenreHref(href: string): string | undefined {
  const [, , year = "", term = ""] = GENRE_URN.exec(href) ?? [];
  for (const [scheme, terms] of SCHEMES) {
    if (terms[term] !== undefined) return `urn:tva:metadata:cs:${scheme}:${year}:${term}`;
  }
  return undefined;
}

/** What is wrong with a genre href, as the loader reports it; undefined when nothing is. */
export function genreHrefProblem(href: string): string | undefined {
  const match = GENRE_URN.exec(href);
  if (!match) {
    return `${quoted(href)} is not a TV-Anytime genre URN (e.g. urn:tva:metadata:cs:ContentCS:2011:3.6.1)`;
  }
  const [, scheme = "", , term = ""] = match;
  const terms = SCHEMES.get(scheme);
  if (!terms) {
    const same = [...SCHEMES.keys()].find((known) => known.toLowerCase() === scheme.toLowerCase());
    return `${quoted(href)} names ${scheme}, not a classification scheme TS 102 818 §5.3 supports (${[...SCHEMES.keys()].join(", ")})${same ? `; did you mean ${same}?` : ""}`;
  }
  if (terms[term] !== undefined) return undefined;
  // The nearest term above it, so the message says where in the scheme it would sit.
  const parts = term.split(".");
  let parent: string | undefined;
  for (let n = parts.length - 1; n > 0 && parent === undefined; n--) {
    const candidate = parts.slice(0, n).join(".");
    if (terms[candidate] !== undefined) parent = candidate;
  }
  const hint = parent === undefined ? "" : `; ${parent} is ${terms[parent]}`;
  return `${quoted(href)} is not a term of ${scheme}: receivers drop a genre they do not know (TS 102 818 §5.3)${hint}`;
}
