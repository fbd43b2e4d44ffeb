import { z } from "zod";
import { isCalendarDate } from "../../time/plainDate.js";
import { quoted } from "../text/inputProblem.js";
import {
  bearerCost,
  crid,
  descriptionSchema,
  genreSchema,
  httpUrl,
  imageSchema,
  keywordsSchema,
  linkSchema,
  mediaType,
  namesSchema,
  translationsSchema,
} from "./fields.js";

/** What a programme publishes, for a show of a schedule and an episode alike. */

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
const programmeEventSchema = z.strictObject({
  name: namesSchema,
  offset: span.describe("When it starts, after the programme's start: 00:30 is half an hour in."),
  duration: span.describe("How long it lasts, HH:MM."),
  every: span
    .optional()
    .describe("Repeats at this interval while it fits in the programme: 01:00 is hourly."),
  ...programmeTextFields,
});

const onDemandFileSchema = z.strictObject({
  url: httpUrl.describe("The recording, http(s)."),
  mimeValue: mediaType.describe("Its media type, e.g. audio/mpeg or audio/aacp."),
  bitrate: z.number().int().positive().optional().describe("In kbit/s."),
  cost: bearerCost.optional().describe("Default 100, as for IP streams."),
});

/** Catch-up availability (TS 102 818 §7.11, §7.12), relative to each airing unless dated. */
const onDemandSchema = z.strictObject({
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

export type Show = z.infer<typeof showSchema>;
export type ProgrammeEventInput = z.infer<typeof programmeEventSchema>;
export type OnDemandInput = z.infer<typeof onDemandSchema>;
export type OnDemandFile = z.infer<typeof onDemandFileSchema>;
