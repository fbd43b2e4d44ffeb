import { z } from "zod";
import { isCalendarDate, weekdayNames } from "../../time/plainDate.js";
import { countryCodeProblem } from "../formats/countryCode.js";
import { genreHrefProblem } from "../formats/genreTerm.js";
import { eventLocatorProblem, httpUrlProblem, linkUriProblem } from "../formats/linkUri.js";
import { mediaTypeProblem } from "../formats/mediaType.js";
import { radiodnsHostProblem } from "../formats/radiodnsHost.js";
import {
  CRID_PATTERN,
  DESCRIPTION_LENGTHS,
  LOGO_TYPES,
  NAME_LENGTHS,
  SERVICE_ID_PATTERN,
} from "../formats/spiFormat.js";
import { parseUri } from "../formats/uriSyntax.js";
import { quoted } from "../text/inputProblem.js";
import { logoSourceSchema } from "./logoSourceInput.js";

/**
 * The shape of everything a broadcaster writes in data/: one source of truth for the TypeScript
 * types, the validation at load time and the JSON Schema that editors use (see schema/).
 * Checks that need more than one field (overlaps, references, time zones) live in the loader.
 */

const timeOfDay = z
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

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is not a date (expected YYYY-MM-DD)" });

/** A string `problem` finds nothing wrong with; its message is the field's error. */
function checkedString(problem: (value: string) => string | undefined) {
  return z.string().check((ctx) => {
    const message = problem(ctx.value);
    if (message !== undefined) ctx.issues.push({ code: "custom", message, input: ctx.value });
  });
}

const httpUrl = checkedString(httpUrlProblem).meta({ format: "uri", pattern: "^https?://" });

/** type/subtype, as SPI's mimeType pattern allows it. */
const mediaType = checkedString(mediaTypeProblem).meta({
  pattern: "^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$",
});

/**
 * A BCP 47 tag as xml:lang takes it (subtags of at most 8 letters or digits) that Intl also
 * accepts as well-formed.
 */
const languageTag = z
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
const crid = checkedString((text) => {
  if (!cridPattern.test(text)) return `${quoted(text)} is not a CRID`;
  const parsed = parseUri(text);
  return parsed.ok ? undefined : `${quoted(text)} ${parsed.reason}`;
}).meta({ pattern: CRID_PATTERN });

const imageSize = z
  .string()
  .regex(/^[1-9]\d{0,4}x[1-9]\d{0,4}$/, { error: "is not an image size (expected WIDTHxHEIGHT)" });

const identifier = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, {
  error: "is not an identifier (lower-case letters, digits, -)",
});

/**
 * shortId on programmes: `zero` as the seed's API writes it (clients must use the CRID), or
 * `unique` for broadcasters whose DAB EPG needs real ones (see programmeShortId.ts).
 */
const shortIdPolicy = z.enum(["zero", "unique"]);

const weekday = z.enum(weekdayNames);
const weekdayName = weekdayNames.join("|");

const weekdaySetMessage =
  "is not a weekday set (expected e.g. mon-fri, sat, daily or a list such as [sat, sun])";

/** `mon-fri`, `sat`, `daily`, or a list such as `[sat, sun]`. */
const weekdaySet = z
  .union(
    [
      z.string().regex(new RegExp(`^(daily|(${weekdayName})(-(${weekdayName}))?)$`), {
        error: weekdaySetMessage,
      }),
      z.array(weekday).min(1),
    ],
    { error: weekdaySetMessage },
  )
  .describe(
    "The weekdays this grid applies to: mon-fri, sat, daily, or a list such as [sat, sun].",
  );

/** At most `max` UTF-16 units is at most `max` code points: most texts need no splitting. */
const fitsIn = (text: string, max: number) => text.length <= max || Array.from(text).length <= max;

/**
 * Text SPI limits to `max` characters, counted as the XSD counts them: code points, not the
 * UTF-16 units of `String.length` (an emoji is one character). JSON Schema counts the same way.
 */
function spiText(max: number, whenMissing?: string) {
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

const keywordsSchema = z
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
export const translationSchema = z.strictObject({
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

const port = z.number().int().min(1).max(65535);

/** A lookup name's ISO 3166-1 country (`…ch.fm.radiodns.org`, TS 103 270): lower case. */
const fmCountry = checkedString((code) =>
  /^[a-z]{2}$/.test(code)
    ? countryCodeProblem(code)
    : `${quoted(code)} is not an ISO 3166 country code in lower case, as a lookup name has it (e.g. ch)`,
);

/** An Authoritative FQDN (TS 102 818 §10); `field` names it in the message about an IP address. */
const radiodnsHost = (field?: string) =>
  checkedString((host) => radiodnsHostProblem(host, field)).meta({
    format: "hostname",
    pattern: "^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$",
  });

export const discoverySchema = z.strictObject({
  host: checkedString(radiodnsHostProblem)
    .optional()
    .describe("The host that serves out/ (the SRV records' target); default: radiodnsHost."),
  httpsPort: port.optional().describe("Its HTTPS port, in the _radiospi SRV record (default 443)."),
  httpPort: port
    .optional()
    .describe("Its plain HTTP port, in the _radioepg SRV record (default 80)."),
  pi: z
    .enum(["keyed", "open"])
    .optional()
    .describe("keyed (default): PI needs an API key. open: PI is served without one."),
  radioepg: z
    .boolean()
    .optional()
    .describe(
      "Write _radioepg._tcp (plain HTTP, no key) beside _radiospi (default true): the record the clients in use look for. With keyed PI they get the open SI and a 401 for PI (TS 102 818 §10.5.5). false leaves it out.",
    ),
  fmCountry: fmCountry
    .optional()
    .describe(
      "ISO 3166 code of the FM services' country, for those that set none: receivers without ECC look them up by it too.",
    ),
});

/** TS 102 818 §6.9: services grouped for a receiver's menus, e.g. the music services. */
export const serviceGroupSchema = z.strictObject({
  // A serviceGroup's names are the serviceNameGroup of a service: a shortName is required.
  name: namesSchema.extend({
    short: spiText(
      NAME_LENGTHS.short,
      `is required: SPI's serviceGroup needs a shortName (at most ${NAME_LENGTHS.short} characters)`,
    ).describe(`shortName: at most ${NAME_LENGTHS.short} characters.`),
  }),
  description: descriptionSchema.optional(),
  logos: z.array(logoSchema).optional(),
  logo: logoSourceSchema.optional(),
  genres: z.array(genreSchema).optional(),
  keywords: keywordsSchema.optional(),
  links: z.array(linkSchema).optional(),
  translations: translationsSchema.optional(),
  geolocation: geolocationSchema.optional(),
});

export const providerSchema = z
  .strictObject({
    // SPI's serviceProvider, like a service, must have a shortName.
    name: namesSchema.extend({
      short: spiText(
        NAME_LENGTHS.short,
        `is required: SPI's serviceProvider needs a shortName (at most ${NAME_LENGTHS.short} characters)`,
      ).describe(`shortName: at most ${NAME_LENGTHS.short} characters.`),
    }),
    description: descriptionSchema.optional(),
    originator: spiText(NAME_LENGTHS.long),
    language: languageTag,
    timeZone: z.string().min(1).describe("IANA time zone of the schedules, e.g. Europe/Zurich."),
    radiodnsHost: radiodnsHost().describe(
      "The Authoritative FQDN: the host literal in every PI path and each service's radiodns element, unless a service has its own (radiodns.fqdn).",
    ),
    cridAuthority: z
      .string()
      .regex(/^[a-z0-9.-]+$/, { error: "is not a CRID authority (a domain)" })
      .describe("The authority of every derived CRID: crid://<authority>/..."),
    programmeEvents: z
      .boolean()
      .optional()
      .describe(
        "Publish the shows' events as programmeEvent elements (default true). false leaves them out of PI, for consumers built on python-hybridspi, which cannot read a PI document with one. A service may set its own.",
      ),
    shortIds: shortIdPolicy
      .optional()
      .describe(
        "Programme shortIds: zero (default, as the seed's API) or unique (stable 24-bit ids from each programme's UTC start, unique across the provider's services, for a DAB EPG). A service may set its own.",
      ),
    piMarginHours: z
      .number()
      .int()
      .min(0)
      // TS 102 818 §10.3: the majority of a PI document's schedule shall be within its day; with
      // the margin on both sides, that is 24 hours of at most 24 + 2 × 11.
      .max(11, {
        error: (issue) =>
          `is ${String(issue.input)}; at most 11 hours, so that most of a PI document stays inside its day (TS 102 818 §10.3)`,
      })
      .optional()
      .describe(
        "How far the previous and next day reach into a PI document, in hours (default 6, at most 11).",
      ),
    logos: z.array(logoSchema).optional(),
    logo: logoSourceSchema.optional(),
    links: z.array(linkSchema).optional(),
    keywords: keywordsSchema.optional(),
    translations: translationsSchema.optional(),
    geolocation: geolocationSchema.optional(),
    serviceGroups: z
      .record(identifier, serviceGroupSchema)
      .optional()
      .describe("Groups of services by id (music, regional); a service joins one with groups."),
    discovery: discoverySchema
      .optional()
      .describe("How radios find this site by DNS (spi-static dns), and whether PI needs a key."),
  })
  .meta({
    title: "spi-static provider",
    description:
      "data/provider.yaml: the service provider, its time zone, RadioDNS host and CRID authority.",
  });

const bearerCost = z.number().int().min(0);

export const dabBearerSchema = z.strictObject({
  id: z.string().regex(/^dab:[0-9a-f]{3}\.[0-9a-f]{4}\.([0-9a-f]{4}|[0-9a-f]{8})\.[0-9a-f]$/, {
    error:
      "is not a DAB bearer id (expected dab:<gcc>.<eid>.<sid>.<scids>, the SId of 4 or 8 hex digits)",
  }),
  mimeValue: z.enum(["audio/mpeg", "audio/aacp"]),
  bitrate: z
    .number()
    .int()
    .min(8, { error: "is not a DAB bitrate (8 to 384 kbit/s, a multiple of 8)" })
    .max(384, { error: "is not a DAB bitrate (8 to 384 kbit/s, a multiple of 8)" })
    .multipleOf(8, { error: "is not a DAB bitrate (8 to 384 kbit/s, a multiple of 8)" })
    .optional()
    .describe("The sub-channel's audio bitrate in kbit/s."),
  cost: bearerCost.optional(),
  offset: z.number().int().min(0).optional(),
});

export const fmBearerSchema = z.strictObject({
  id: z.string().regex(/^fm:[0-9a-f]{3}\.[0-9a-f]{4}\.\d{5}$/, {
    error: "is not an FM bearer id (expected fm:<gcc>.<pi>.<frequency as 5 digits>)",
  }),
  cost: bearerCost.optional(),
  offset: z.number().int().min(0).optional(),
});

/** HD Radio, DRM and AMSS bearers: no default cost, as no clause of TS 102 818 suggests one. */
export const hdBearerSchema = z.strictObject({
  id: z.string().regex(/^hd:[0-9a-f]{3}\.[0-9a-f]{5}$/, {
    error:
      "is not an HD Radio bearer id (expected hd:<country code>.<transmitter id>, e.g. hd:292.0ea31)",
  }),
  cost: bearerCost,
  offset: z.number().int().min(0).optional(),
});

export const drmBearerSchema = z.strictObject({
  id: z.string().regex(/^drm:[0-9a-f]{6}$/, {
    error: "is not a DRM bearer id (expected drm:<service id, 6 hex digits>)",
  }),
  cost: bearerCost,
  mimeValue: mediaType.describe("The encoded audio's media type (TS 102 818 §5.11.3)."),
  offset: z.number().int().min(0).optional(),
});

export const amssBearerSchema = z.strictObject({
  id: z.string().regex(/^amss:[0-9a-f]{6}$/, {
    error: "is not an AMSS bearer id (expected amss:<service id, 6 hex digits>)",
  }),
  cost: bearerCost,
  offset: z.number().int().min(0).optional(),
});

export const streamSchema = z.strictObject({
  url: httpUrl,
  mimeValue: mediaType,
  bitrate: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "In kbit/s, for a constant-bitrate stream; leave it out for HLS, DASH and VBR streams (TS 102 818 V3.5.1 §5.11.4).",
    ),
  cost: bearerCost.optional(),
  offset: z.number().int().min(0).optional(),
});

/**
 * A service's own RadioDNS identity, as SI's `<radiodns fqdn serviceIdentifier>` writes it
 * (TS 102 818 §6.5.3): broadcasters with an Authoritative FQDN per service (or a group of them)
 * keep their PI URLs and bearers' CNAMEs as they are.
 */
export const serviceRadiodnsSchema = z.strictObject({
  fqdn: radiodnsHost("radiodns.fqdn")
    .optional()
    .describe(
      "The service's Authoritative FQDN: its PI paths and lookup names' target; default: the provider's radiodnsHost.",
    ),
  serviceIdentifier: z
    .string()
    .regex(SERVICE_ID_PATTERN, {
      error: "is not a serviceIdentifier (1 to 16 lower-case letters or digits)",
    })
    .optional()
    .describe("The service's id under that FQDN, in its PI paths; default: the service's id."),
});

export const serviceSchema = z
  .strictObject({
    id: z.string().regex(SERVICE_ID_PATTERN, {
      error: "is not a service id (1 to 16 lower-case letters or digits)",
    }),
    radiodns: serviceRadiodnsSchema
      .optional()
      .describe(
        "The service's own RadioDNS FQDN and serviceIdentifier, when it is not the provider's radiodnsHost and its id.",
      ),
    name: namesSchema.extend({ short: spiText(NAME_LENGTHS.short) }),
    description: descriptionSchema.optional(),
    language: languageTag.optional().describe("Defaults to the provider's."),
    timeZone: z
      .string()
      .min(1)
      .optional()
      .describe("Defaults to the provider's; the service's days and grid times are in this zone."),
    programmeEvents: z
      .boolean()
      .optional()
      .describe("Publish this service's programmeEvents; defaults to the provider's (true)."),
    shortIds: shortIdPolicy
      .optional()
      .describe("Programme shortIds for this service: zero or unique; defaults to the provider's."),
    fmCountry: fmCountry
      .optional()
      .describe(
        "ISO 3166 code of this service's FM country (lower case): receivers without ECC look its FM bearers up by it too. Defaults to discovery.fmCountry.",
      ),
    shortIdSlot: z
      .number()
      .int()
      .min(0)
      .max(30)
      .optional()
      .describe(
        "With shortIds: unique, the service's share of its RadioDNS FQDN's shortIds (0 to 30, one service each per FQDN); default: its id's slot, or the next free one (with a warning to pin it).",
      ),
    logos: z.array(logoSchema).optional(),
    logo: logoSourceSchema.optional(),
    genres: z.array(genreSchema).optional(),
    keywords: keywordsSchema.optional(),
    links: z.array(linkSchema).optional(),
    translations: translationsSchema.optional(),
    geolocation: geolocationSchema.optional(),
    groups: z
      .array(identifier)
      .optional()
      .describe("The provider's serviceGroups this service is a member of, by id."),
    bearers: z
      .strictObject({
        dab: z.array(dabBearerSchema).optional(),
        fm: z.array(fmBearerSchema).optional(),
        hd: z.array(hdBearerSchema).optional(),
        drm: z.array(drmBearerSchema).optional(),
        amss: z.array(amssBearerSchema).optional(),
      })
      .optional(),
    streams: z
      .array(streamSchema)
      .optional()
      .describe("IP streams: published only in the keyed SI document."),
  })
  .meta({
    title: "spi-static service",
    description: "data/services/<id>.yaml: one radio service.",
  });

/** A length of time within a programme, "HH:MM": `00:30` is half an hour. */
const span = z
  .string()
  .regex(/^\d{2}:[0-5]\d$/, { error: "is not a length of time (expected HH:MM, e.g. 00:30)" });

/** A point in time with its UTC offset, as xs:dateTime writes it: never the host's zone. */
const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?(Z|[+-]\d{2}:\d{2})$/, {
    error:
      "is not a date and time with its UTC offset (e.g. 2026-11-23T10:00+01:00 or 2026-11-23T09:00Z)",
  })
  .refine((text) => isCalendarDate(text.slice(0, 10)), {
    error: (issue) => `${quoted(String(issue.input).slice(0, 10))} is not a calendar date`,
  });

/** The parts of a programme a show, an episode and a programme event all publish. */
const programmeTextFields = {
  description: descriptionSchema.optional(),
  images: z.array(imageSchema).optional(),
  genres: z.array(genreSchema).optional(),
  keywords: keywordsSchema.optional(),
  links: z
    .array(linkSchema)
    .optional()
    .describe("More links: tel:, mailto:, a podcast page… (the website goes in website)."),
  translations: translationsSchema.optional(),
};

/** A segment of the programme (TS 102 818 §7.7), placed relative to the programme's start. */
export const programmeEventSchema = z.strictObject({
  name: namesSchema,
  offset: span.describe("When it starts, after the programme's start: 00:30 is half an hour in."),
  duration: span.describe("How long it lasts, HH:MM."),
  every: span
    .optional()
    .describe("Repeats at this interval while it fits in the programme: 01:00 is hourly."),
  ...programmeTextFields,
});

export const onDemandFileSchema = z.strictObject({
  url: httpUrl.describe("The recording, http(s)."),
  mimeValue: mediaType.describe("Its media type, e.g. audio/mpeg or audio/aacp."),
  bitrate: z.number().int().positive().optional().describe("In kbit/s."),
  cost: bearerCost.optional().describe("Default 100, as for IP streams."),
});

/** Catch-up availability (TS 102 818 §7.11, §7.12), relative to each airing unless dated. */
export const onDemandSchema = z.strictObject({
  files: z.array(onDemandFileSchema).min(1),
  availableFrom: instant
    .optional()
    .describe("When the recording can be played; default: when the airing ends."),
  availableUntil: instant.optional().describe("When it stops being available."),
  availableDays: z
    .number()
    .int()
    .min(1)
    .max(3650)
    .optional()
    .describe("Or: available for this many days from availableFrom (default: indefinitely)."),
  duration: span.optional().describe("The recording's length; default: the airing's."),
});

export const showSchema = z.strictObject({
  name: namesSchema,
  website: httpUrl.optional(),
  group: crid
    .optional()
    .describe("The show's group CRID (memberOf); derived from service and show id when absent."),
  groupShortId: z
    .number()
    .int()
    .min(1)
    .max(16_777_215)
    .optional()
    .describe(
      "The group's shortId in memberOf (a 24-bit number, TS 102 818 §5.10), e.g. kept from an imported feed; 0 when absent.",
    ),
  terrestrialProgrammeCrid: crid
    .optional()
    .describe(
      "The CRID the broadcast (DAB/DVB) EPG gives this programme, published as a terrestrial_programme_crid link; only when it is a real identifier of your broadcast system.",
    ),
  ...programmeTextFields,
  events: z
    .array(programmeEventSchema)
    .optional()
    .describe("Segments published as programmeEvents: news on the hour, a feature at :30."),
  onDemand: onDemandSchema.optional().describe("Where and how long each airing can be replayed."),
});

/**
 * One airing's own text: whatever an episode gives replaces the show's field of that name. It
 * has every field a show has, so a field added to shows is one episodes can give too.
 */
export const episodeSchema = showSchema.partial().extend({
  date: isoDate.describe("The local date the airing starts on."),
  start: timeOfDay
    .optional()
    .describe("The airing's local start time: needed when the show airs more than once that day."),
  show: identifier.optional().describe("The show it is an episode of."),
  crid: crid
    .optional()
    .describe("The airing's own CRID; derived from service and start if absent."),
  terrestrialEventLocator: checkedString(eventLocatorProblem)
    .optional()
    .describe(
      "The broadcast event this airing is, as your broadcast system names it (a DVB locator dvb://<onid>.<tsid>.<sid>;<event id>, TS 102 851), published as a terrestrial_event_locator link.",
    ),
});

export const gridSlotSchema = z.strictObject({
  start: timeOfDay,
  end: timeOfDay.optional().describe("Without an end a slot runs until the next slot starts."),
  show: identifier,
});

export const specialSchema = z.strictObject({
  start: timeOfDay,
  end: timeOfDay,
  show: identifier,
  crid: crid.optional(),
});

export const datedEntrySchema = z.strictObject({
  date: isoDate,
  like: weekday
    .optional()
    .describe("Run another weekday's grid on this date (a holiday on a Sunday schedule)."),
  slots: z.array(gridSlotSchema).optional().describe("Replace this date's grid with these slots."),
  specials: z
    .array(specialSchema)
    .optional()
    .describe("Programmes laid over the grid: what they overlap is cut away."),
});

export const scheduleSchema = z
  .strictObject({
    shows: z
      .record(identifier, showSchema)
      .describe("Every show of the service, by id; slots name them."),
    grid: z
      .array(
        z.strictObject({
          days: weekdaySet,
          slots: z.array(gridSlotSchema).min(1),
        }),
      )
      .describe("The weekly grid, in the service's local time."),
    dates: z
      .array(datedEntrySchema)
      .optional()
      .describe(
        "Days that differ from the grid: another weekday's grid, other slots, or specials.",
      ),
    episodes: z
      .array(episodeSchema)
      .optional()
      .describe("Airings with their own text; more in episodes/<service id>/*.yaml."),
  })
  .meta({
    title: "spi-static schedule",
    description: "data/schedules/<service id>.yaml: shows, weekly grid and dated entries.",
  });

export const episodesFileSchema = z
  .strictObject({
    episodes: z.array(episodeSchema).describe("Airings with their own text, by date and start."),
  })
  .meta({
    title: "spi-static episodes",
    description:
      "data/episodes/<service id>/<any name>.yaml: episodes of that service's schedule, e.g. one file per week.",
  });

export type ShortIdPolicy = z.infer<typeof shortIdPolicy>;
export type Names = z.infer<typeof namesSchema>;
export type Description = z.infer<typeof descriptionSchema>;
export type Link = z.infer<typeof linkSchema>;
export type Translation = z.infer<typeof translationSchema>;
export type GeolocationInput = z.infer<typeof geolocationSchema>;
export type ServiceGroupInput = z.infer<typeof serviceGroupSchema>;
export type LogoInput = z.infer<typeof logoSchema>;
export type Genre = z.infer<typeof genreSchema>;
export type ProviderInput = z.infer<typeof providerSchema>;
export type ServiceInput = z.infer<typeof serviceSchema>;
export type ServiceRadiodnsInput = z.infer<typeof serviceRadiodnsSchema>;
export type Show = z.infer<typeof showSchema>;
export type GridSlotInput = z.infer<typeof gridSlotSchema>;
export type DatedEntry = z.infer<typeof datedEntrySchema>;
export type ScheduleInput = z.infer<typeof scheduleSchema>;
export type ProgrammeEventInput = z.infer<typeof programmeEventSchema>;
export type OnDemandInput = z.infer<typeof onDemandSchema>;
export type OnDemandFile = z.infer<typeof onDemandFileSchema>;
export type EpisodeInput = z.infer<typeof episodeSchema>;
export type EpisodesFileInput = z.infer<typeof episodesFileSchema>;

/** Each kind of data file and the schema its YAML is validated against. */
export const INPUT_SCHEMAS = {
  provider: providerSchema,
  service: serviceSchema,
  schedule: scheduleSchema,
  episodes: episodesFileSchema,
} as const;
export type InputKind = keyof typeof INPUT_SCHEMAS;
export type InputOf<K extends InputKind> = z.infer<(typeof INPUT_SCHEMAS)[K]>;
