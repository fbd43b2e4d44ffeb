import { z } from "zod";
import { countryCodeProblem } from "../formats/countryCode.js";
import { genreHrefProblem } from "../formats/genreTerm.js";
import { linkUriProblem } from "../formats/linkUri.js";
import { DESCRIPTION_LENGTHS, LOGO_TYPES, NAME_LENGTHS } from "../formats/spiFormat.js";
import { quoted } from "../text/inputProblem.js";
import {
  checkedString,
  httpUrl,
  imageSize,
  languageTag,
  mediaType,
  spiText,
} from "./fieldValues.js";

/** The parts a provider, a service and a show share: names, texts, links, images, genres, places. */

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
