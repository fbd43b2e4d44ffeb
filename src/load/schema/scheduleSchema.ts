import { z } from "zod";
import { weekdayNames } from "../../time/plainDate.js";
import { episodeSchema } from "./episodesSchema.js";
import { crid, identifier, isoDate, timeOfDay } from "./fields.js";
import { showSchema } from "./showSchema.js";

/** data/schedules/<service id>.yaml: a service's shows, weekly grid and dated entries. */

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

const gridSlotSchema = z.strictObject({
  start: timeOfDay,
  end: timeOfDay.optional().describe("Without an end a slot runs until the next slot starts."),
  show: identifier,
});

const specialSchema = z.strictObject({
  start: timeOfDay,
  end: timeOfDay,
  show: identifier,
  crid: crid.optional(),
});

const datedEntrySchema = z.strictObject({
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

export type GridSlotInput = z.infer<typeof gridSlotSchema>;
export type DatedEntry = z.infer<typeof datedEntrySchema>;
export type ScheduleInput = z.infer<typeof scheduleSchema>;
