import { z } from "zod";
import { countryCodeProblem } from "../formats/countryCode.js";
import { genreHrefProblem } from "../formats/genreTerm.js";
import { httpUrlProblem, linkUriProblem } from "../formats/linkUri.js";
import { mediaTypeProblem } from "../formats/mediaType.js";
import { radiodnsHostProblem } from "../formats/radiodnsHost.js";
import {
  CRID_PATTERN,
  DESCRIPTION_LENGTHS,
  LOGO_TYPES,
  NAME_LENGTHS,
} from "../formats/spiFormat.js";
import { parseUri } from "../formats/uriSyntax.js";
import { quoted } from "../text/inputProblem.js";

/**
 * The fields more than one kind of data file has: single values (times, URLs, media types,
 * language tags, CRIDs, identifiers, texts of SPI's lengths), then the parts a provider, a
 * service and a show share (names, descriptions, links, translations, logos, images, genres,
 * places), each with its message.
 */

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

export const namesSchema = z.strictObject({
  short: spiText(NAME_LENGTHS.short)
    .optional()
    .describe(`shortName: at most ${NAME_LENGTHS.short} characters.`),
  medium: spiText(NAME_LENGTHS.medium)
    .optional()
    .describe(
      `mediumName: at most ${NAME_LENGTHS.medium} characters; derived from the long name (cut with …) when absent.`,
    ),
  long: spiText(NAME_LENGTHS.long).describe(`longName: at most ${NAME_LENGTHS.long} characters.`),
});

export const descriptionSchema = z.strictObject({
  short: spiText(DESCRIPTION_LENGTHS.short)
    .optional()
    .describe(`shortDescription: at most ${DESCRIPTION_LENGTHS.short} characters.`),
  long: spiText(DESCRIPTION_LENGTHS.long)
    .optional()
    .describe(`longDescription: at most ${DESCRIPTION_LENGTHS.long} characters.`),
});

export const linkSchema = z.strictObject({
  uri: checkedString(linkUriProblem).describe(
    "http, https, mailto, tel, sms, postal, crid, dab, fm, hd, drm or amss URI.",
  ),
  description: spiText(180).optional(),
  mimeValue: mediaType.optional().describe("The linked resource's media type, e.g. text/html."),
});

export const keywordsSchema = z
  .array(
    checkedString((keyword) =>
      keyword.includes(",")
        ? `${quoted(keyword)} holds a comma: keywords are published as one comma-separated list (TS 102 818 §5.4), so it would become several; give each as its own item`
        : undefined,
    ).min(1),
  )
  .describe("Published as one comma-separated keywords element; a keyword holds no comma.");

/**
 * The texts of a provider, service or show in one more language: published beside the owner's
 * own texts (which are in its `language`), each element with this language's xml:lang. Any part
 * may be left out; a name without `medium` gets one cut from its `long`, as the owner's does.
 */
const translationSchema = z.strictObject({
  name: namesSchema
    .partial()
    .optional()
    .describe("The names in this language; any of short, medium and long."),
  description: descriptionSchema.optional(),
  keywords: keywordsSchema.optional(),
  links: z
    .array(linkSchema)
    .optional()
    .describe("Links for listeners of this language, their descriptions in it."),
});

export const translationsSchema = z
  .record(languageTag, translationSchema)
  .describe(
    "The same texts in other languages, by BCP 47 tag (fr, en, de-CH): names, description, keywords, links.",
  );

export const logoSchema = z.strictObject({
  url: httpUrl,
  size: imageSize.describe(
    "WIDTHxHEIGHT; clients expect 32x32, 112x32, 128x128, 320x240 and 600x600.",
  ),
  type: z
    .enum(LOGO_TYPES)
    .optional()
    .describe("Derived from the size when absent: 32x32 is the square logo, 112x32 the rectangle."),
  mimeValue: mediaType
    .optional()
    .describe(
      "Derived from the URL's extension when absent; the square and rectangle logos are PNG.",
    ),
});

export const imageSchema = z.strictObject({
  url: httpUrl,
  size: imageSize,
  mimeValue: mediaType
    .optional()
    .describe("Derived from the URL's extension when absent; required when it has none."),
});

export const genreSchema = z.strictObject({
  href: checkedString(genreHrefProblem)
    .meta({ pattern: "^urn:tva:metadata:cs:[A-Za-z]+CS:\\d{4}:[0-9]+(\\.[0-9]+)*$" })
    .describe(
      "A term of a TV-Anytime classification scheme, e.g. urn:tva:metadata:cs:ContentCS:2011:3.6.1.",
    ),
  name: z
    .string()
    .min(1)
    .optional()
    .describe("The label receivers show; default: the term's English label in its scheme's list."),
  type: z.enum(["main", "secondary", "other"]).optional(),
});

/** A WGS84 position as geoRSS writes it: latitude first. */
const position = z
  .tuple([
    z
      .number()
      .min(-90, { error: "is not a latitude (-90 to 90; latitude comes first)" })
      .max(90, { error: "is not a latitude (-90 to 90; latitude comes first)" }),
    z
      .number()
      .min(-180, { error: "is not a longitude (-180 to 180)" })
      .max(180, { error: "is not a longitude (-180 to 180)" }),
  ])
  .describe("[latitude, longitude] in degrees (WGS84), e.g. [46.9480, 7.4474].");

/** TS 102 818 §5.12: where a provider or service is, or the area it serves. */
export const geolocationSchema = z
  .strictObject({
    country: z
      .union([checkedString(countryCodeProblem), z.array(checkedString(countryCodeProblem)).min(1)])
      .optional()
      .describe("ISO 3166-1 alpha-2 code (CH), or a list of them."),
    point: position.optional().describe("Where it is based: [latitude, longitude]."),
    polygon: z
      .array(position)
      .min(4, { error: "has too few points: a polygon has 4 to 100 (the last repeats the first)" })
      .max(100, { error: "has too many points: a polygon has at most 100 (TS 102 818 §5.12)" })
      .refine(
        (points) => points[0]?.[0] === points.at(-1)?.[0] && points[0]?.[1] === points.at(-1)?.[1],
        { error: "is not closed: its last point must repeat the first (TS 102 818 §5.12)" },
      )
      .optional()
      .describe(
        "The area served: 4 to 100 [latitude, longitude] points, the last the same as the first.",
      ),
  })
  .refine((g) => g.country !== undefined || g.point !== undefined || g.polygon !== undefined, {
    error: "is empty: give a country, a point or a polygon",
  });

export type Names = z.infer<typeof namesSchema>;
export type Description = z.infer<typeof descriptionSchema>;
export type Link = z.infer<typeof linkSchema>;
export type Translation = z.infer<typeof translationSchema>;
export type GeolocationInput = z.infer<typeof geolocationSchema>;
export type LogoInput = z.infer<typeof logoSchema>;
export type Genre = z.infer<typeof genreSchema>;
