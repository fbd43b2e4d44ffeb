import { z } from "zod";

/**
 * The shape of everything a broadcaster writes in data/: one source of truth for the TypeScript
 * types, the validation at load time and the JSON Schema that editors use (see schema/).
 * Checks that need more than one field (overlaps, references, time zones) live in the loader.
 */

const timeOfDay = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: "is not a time of day (expected HH:MM)" });

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "is not a date (expected YYYY-MM-DD)" });

const httpUrl = z
  .string()
  .regex(/^https?:\/\/[^\s]+$/, { error: "is not an http(s) URL" });

const imageSize = z
  .string()
  .regex(/^[1-9]\d{0,4}x[1-9]\d{0,4}$/, { error: "is not an image size (expected WIDTHxHEIGHT)" });

const identifier = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,63}$/, { error: "is not an identifier (lower-case letters, digits, -)" });

export const weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
const weekday = z.enum(weekdayNames);

/** `mon-fri`, `sat`, `daily`, or a list such as `[sat, sun]`. */
const weekdaySet = z.union([
  z
    .string()
    .regex(/^(daily|(mon|tue|wed|thu|fri|sat|sun)(-(mon|tue|wed|thu|fri|sat|sun))?)$/, {
      error: "is not a weekday set (expected e.g. mon-fri, sat, daily or a list)",
    }),
  z.array(weekday).min(1),
]);

export const namesSchema = z.strictObject({
  short: z.string().min(1).max(8).optional(),
  medium: z.string().min(1).max(16).optional(),
  long: z.string().min(1).max(128),
});

export const descriptionSchema = z.strictObject({
  short: z.string().min(1).max(180).optional(),
  long: z.string().min(1).max(1200).optional(),
});

export const linkSchema = z.strictObject({
  uri: z.string().min(1),
  description: z.string().max(180).optional(),
  mimeValue: z.string().optional(),
});

export const logoTypes = ["logo_colour_square", "logo_colour_rectangle", "logo_unrestricted"] as const;

export const logoSchema = z.strictObject({
  url: httpUrl,
  size: imageSize,
  /** Derived from the size when absent: 32x32 is the square logo, 112x32 the rectangle. */
  type: z.enum(logoTypes).optional(),
  mimeValue: z.string().optional(),
});

export const imageSchema = z.strictObject({
  url: httpUrl,
  size: imageSize,
});

export const genreSchema = z.strictObject({
  href: z.string().regex(/^urn:tva:metadata:cs:[A-Za-z]+CS:\d{4}:[0-9.]+$/, {
    error: "is not a TV-Anytime genre URN (e.g. urn:tva:metadata:cs:ContentCS:2011:3.6.1)",
  }),
  name: z.string().min(1),
  type: z.enum(["main", "secondary", "other"]).optional(),
});

export const providerSchema = z.strictObject({
  name: namesSchema,
  description: descriptionSchema.optional(),
  originator: z.string().min(1).max(128),
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/, { error: "is not a language tag" }),
  timeZone: z.string().min(1),
  /** The fixed host literal in every PI path and in each service's radiodns element. */
  radiodnsHost: z.string().regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, {
    error: "is not a host name",
  }),
  cridAuthority: z.string().regex(/^[a-z0-9.-]+$/, { error: "is not a CRID authority (a domain)" }),
  /** How far the previous and next day reach into a PI document, in hours (default 6). */
  piMarginHours: z.number().int().min(0).max(24).optional(),
  logos: z.array(logoSchema).optional(),
  links: z.array(linkSchema).optional(),
  keywords: z.array(z.string().min(1)).optional(),
});

const bearerCost = z.number().int().min(0);

export const dabBearerSchema = z.strictObject({
  id: z.string().regex(/^dab:[0-9a-f]{3}\.[0-9a-f]{4}\.[0-9a-f]{4,8}\.[0-9a-f]$/, {
    error: "is not a DAB bearer id (expected dab:<gcc>.<eid>.<sid>.<scids>)",
  }),
  mimeValue: z.enum(["audio/mpeg", "audio/aacp"]),
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

export const streamSchema = z.strictObject({
  url: httpUrl,
  mimeValue: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/, { error: "is not a media type" }),
  bitrate: z.number().int().positive(),
  cost: bearerCost.optional(),
  offset: z.number().int().min(0).optional(),
});

export const serviceSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]{1,16}$/, {
    error: "is not a service id (1 to 16 lower-case letters or digits)",
  }),
  name: namesSchema.extend({ short: z.string().min(1).max(8) }),
  description: descriptionSchema.optional(),
  /** Defaults to the provider's. */
  language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/, { error: "is not a language tag" }).optional(),
  /** Defaults to the provider's; the service's days and grid times are in this zone. */
  timeZone: z.string().min(1).optional(),
  logos: z.array(logoSchema).optional(),
  genres: z.array(genreSchema).min(1),
  keywords: z.array(z.string().min(1)).optional(),
  links: z.array(linkSchema).optional(),
  bearers: z
    .strictObject({
      dab: z.array(dabBearerSchema).optional(),
      fm: z.array(fmBearerSchema).optional(),
    })
    .optional(),
  /** IP streams: published only in the keyed SI document. */
  streams: z.array(streamSchema).optional(),
});

export const showSchema = z.strictObject({
  name: namesSchema,
  description: descriptionSchema.optional(),
  images: z.array(imageSchema).optional(),
  website: httpUrl.optional(),
  genres: z.array(genreSchema).optional(),
  /** The show's group CRID (memberOf); derived from service and show id when absent. */
  group: z.string().regex(/^crid:\/\/[^/\s]+\/\S+$/, { error: "is not a CRID" }).optional(),
});

export const gridSlotSchema = z.strictObject({
  start: timeOfDay,
  /** Without an end a slot runs until the next slot starts. */
  end: timeOfDay.optional(),
  show: identifier,
});

export const specialSchema = z.strictObject({
  start: timeOfDay,
  end: timeOfDay,
  show: identifier,
  crid: z.string().regex(/^crid:\/\/[^/\s]+\/\S+$/, { error: "is not a CRID" }).optional(),
});

export const datedEntrySchema = z.strictObject({
  date: isoDate,
  /** Run another weekday's grid on this date (a holiday on a Sunday schedule). */
  like: weekday.optional(),
  /** Replace this date's grid with these slots. */
  slots: z.array(gridSlotSchema).optional(),
  /** Programmes laid over the grid: what they overlap is cut away. */
  specials: z.array(specialSchema).optional(),
});

export const scheduleSchema = z.strictObject({
  shows: z.record(identifier, showSchema),
  grid: z.array(
    z.strictObject({
      days: weekdaySet,
      slots: z.array(gridSlotSchema).min(1),
    }),
  ),
  dates: z.array(datedEntrySchema).optional(),
});

export type Weekday = z.infer<typeof weekday>;
export type Names = z.infer<typeof namesSchema>;
export type Description = z.infer<typeof descriptionSchema>;
export type Link = z.infer<typeof linkSchema>;
export type LogoInput = z.infer<typeof logoSchema>;
export type Image = z.infer<typeof imageSchema>;
export type Genre = z.infer<typeof genreSchema>;
export type ProviderInput = z.infer<typeof providerSchema>;
export type ServiceInput = z.infer<typeof serviceSchema>;
export type Show = z.infer<typeof showSchema>;
export type GridSlotInput = z.infer<typeof gridSlotSchema>;
export type Special = z.infer<typeof specialSchema>;
export type DatedEntry = z.infer<typeof datedEntrySchema>;
export type ScheduleInput = z.infer<typeof scheduleSchema>;
