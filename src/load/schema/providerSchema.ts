import { z } from "zod";
import { radiodnsHostProblem } from "../formats/radiodnsHost.js";
import { NAME_LENGTHS } from "../formats/spiFormat.js";
import {
  checkedString,
  descriptionSchema,
  fmCountry,
  genreSchema,
  geolocationSchema,
  identifier,
  keywordsSchema,
  languageTag,
  linkSchema,
  logoSchema,
  namesSchema,
  radiodnsHost,
  shortIdPolicy,
  spiText,
  translationsSchema,
} from "./fields.js";
import { logoSourceSchema } from "./logoSourceInput.js";

/** data/provider.yaml: the service provider, its groups of services and how radios find it. */

const port = z.number().int().min(1).max(65535);

const discoverySchema = z.strictObject({
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
const serviceGroupSchema = z.strictObject({
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

export type ServiceGroupInput = z.infer<typeof serviceGroupSchema>;
export type ProviderInput = z.infer<typeof providerSchema>;
