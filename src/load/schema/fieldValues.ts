import { z } from "zod";
import { countryCodeProblem } from "../formats/countryCode.js";
import { httpUrlProblem } from "../formats/linkUri.js";
import { mediaTypeProblem } from "../formats/mediaType.js";
import { radiodnsHostProblem } from "../formats/radiodnsHost.js";
import { CRID_PATTERN } from "../formats/spiFormat.js";
import { parseUri } from "../formats/uriSyntax.js";
import { quoted } from "../text/inputProblem.js";

/** The single values that fields of more than one kind of data file hold, each with its message. */

export const timeOfDay = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? undefined
        : `expected a time of day as "HH:MM" in quotes, got ${String(issue.input)}`,
  })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, {
    error: (issue) => `is not a time of day (expected HH:MM)${timeOfDayHint(String(issue.input))}`,
  });

/** What was probably meant by a time that is not HH:MM: `6:00` → `06:00`, `24:00` → `00:00`. */
function timeOfDayHint(time: string): string {
  if (/^24:00?$/.test(time))
    return '; midnight is "00:00" (an end of "00:00" is the next midnight)';
  const short = /^(\d):([0-5]\d)$/.exec(time);
  if (short) return `; write "0${short[1]}:${short[2]}"`;
  return "";
}

export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is not a date (expected YYYY-MM-DD)" });

/** A string `problem` finds nothing wrong with; its message is the field's error. */
export function checkedString(problem: (value: string) => string | undefined) {
  return z.string().check((ctx) => {
    const message = problem(ctx.value);
    if (message !== undefined) ctx.issues.push({ code: "custom", message, input: ctx.value });
  });
}

export const httpUrl = checkedString(httpUrlProblem).meta({ format: "uri", pattern: "^https?://" });

/** type/subtype, as SPI's mimeType pattern allows it. */
export const mediaType = checkedString(mediaTypeProblem).meta({
  pattern: "^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$",
});

/**
 * A BCP 47 tag as xml:lang takes it (subtags of at most 8 letters or digits) that Intl also
 * accepts as well-formed.
 */
export const languageTag = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, {
    error: "is not a language tag (e.g. en, de-CH; subtags of at most 8 letters or digits)",
  })
  .refine(
    (tag) => {
      try {
        Intl.getCanonicalLocales(tag);
        return true;
      } catch {
        return false;
      }
    },
    { error: "is not a well-formed language tag (BCP 47, e.g. en, de-CH)" },
  );

/** crid://<authority>/<data>, a well-formed URI as the schema's CRIDType requires. */
const cridPattern = new RegExp(CRID_PATTERN);
export const crid = checkedString((text) => {
  if (!cridPattern.test(text)) return `${quoted(text)} is not a CRID`;
  const parsed = parseUri(text);
  return parsed.ok ? undefined : `${quoted(text)} ${parsed.reason}`;
}).meta({ pattern: CRID_PATTERN });

export const imageSize = z
  .string()
  .regex(/^[1-9]\d{0,4}x[1-9]\d{0,4}$/, { error: "is not an image size (expected WIDTHxHEIGHT)" });

export const identifier = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, {
  error: "is not an identifier (lower-case letters, digits, -)",
});

/**
 * shortId on programmes: `zero` as the seed's API writes it (clients must use the CRID), or
 * `unique` for broadcasters whose DAB EPG needs real ones (see programmeShortId.ts).
 */
export const shortIdPolicy = z.enum(["zero", "unique"]);

/** At most `max` UTF-16 units is at most `max` code points: most texts need no splitting. */
const fitsIn = (text: string, max: number) => text.length <= max || Array.from(text).length <= max;

/**
 * Text SPI limits to `max` characters, counted as the XSD counts them: code points, not the
 * UTF-16 units of `String.length` (an emoji is one character). JSON Schema counts the same way.
 */
export function spiText(max: number, whenMissing?: string) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? whenMissing : undefined),
    })
    .min(1)
    .refine((text) => fitsIn(text, max), {
      error: (issue) =>
        `is ${Array.from(String(issue.input)).length} characters long; at most ${max} characters are allowed`,
    })
    .meta({ maxLength: max });
}

/** A lookup name's ISO 3166-1 country (`…ch.fm.radiodns.org`, TS 103 270): lower case. */
export const fmCountry = checkedString((code) =>
  /^[a-z]{2}$/.test(code)
    ? countryCodeProblem(code)
    : `${quoted(code)} is not an ISO 3166 country code in lower case, as a lookup name has it (e.g. ch)`,
);

/** An Authoritative FQDN (TS 102 818 §10); `field` names it in the message about an IP address. */
export const radiodnsHost = (field?: string) =>
  checkedString((host) => radiodnsHostProblem(host, field)).meta({
    format: "hostname",
    pattern: "^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$",
  });

export const bearerCost = z.number().int().min(0);

export type ShortIdPolicy = z.infer<typeof shortIdPolicy>;
