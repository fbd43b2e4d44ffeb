import { z } from "zod";
import { NAME_LENGTHS, SERVICE_ID_PATTERN } from "../formats/spiFormat.js";
import {
  bearerCost,
  descriptionSchema,
  fmCountry,
  genreSchema,
  geolocationSchema,
  httpUrl,
  identifier,
  keywordsSchema,
  languageTag,
  linkSchema,
  logoSchema,
  mediaType,
  namesSchema,
  radiodnsHost,
  shortIdPolicy,
  spiText,
  translationsSchema,
} from "./fields.js";
import { logoSourceSchema } from "./logoSourceInput.js";

/** data/services/<id>.yaml: one radio service, its bearers and streams. */

const dabBearerSchema = z.strictObject({
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

const fmBearerSchema = z.strictObject({
  id: z.string().regex(/^fm:[0-9a-f]{3}\.[0-9a-f]{4}\.\d{5}$/, {
    error: "is not an FM bearer id (expected fm:<gcc>.<pi>.<frequency as 5 digits>)",
  }),
  cost: bearerCost.optional(),
  offset: z.number().int().min(0).optional(),
});

/** HD Radio, DRM and AMSS bearers: no default cost, as no clause of TS 102 818 suggests one. */
const hdBearerSchema = z.strictObject({
  id: z.string().regex(/^hd:[0-9a-f]{3}\.[0-9a-f]{5}$/, {
    error:
      "is not an HD Radio bearer id (expected hd:<country code>.<transmitter id>, e.g. hd:292.0ea31)",
  }),
  cost: bearerCost,
  offset: z.number().int().min(0).optional(),
});

const drmBearerSchema = z.strictObject({
  id: z.string().regex(/^drm:[0-9a-f]{6}$/, {
    error: "is not a DRM bearer id (expected drm:<service id, 6 hex digits>)",
  }),
  cost: bearerCost,
  mimeValue: mediaType.describe("The encoded audio's media type (TS 102 818 §5.11.3)."),
  offset: z.number().int().min(0).optional(),
});

const amssBearerSchema = z.strictObject({
  id: z.string().regex(/^amss:[0-9a-f]{6}$/, {
    error: "is not an AMSS bearer id (expected amss:<service id, 6 hex digits>)",
  }),
  cost: bearerCost,
  offset: z.number().int().min(0).optional(),
});

const streamSchema = z.strictObject({
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
const serviceRadiodnsSchema = z.strictObject({
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

export type ServiceInput = z.infer<typeof serviceSchema>;
export type ServiceRadiodnsInput = z.infer<typeof serviceRadiodnsSchema>;
