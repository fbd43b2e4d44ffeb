import { z } from "zod";
import { eventLocatorProblem } from "../formats/linkUri.js";
import { checkedString, crid, identifier, isoDate, timeOfDay } from "./fields.js";
import { showSchema } from "./showSchema.js";

/** data/episodes/<service id>/*.yaml: airings with their own text, by date and start. */

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

export const episodesFileSchema = z
  .strictObject({
    episodes: z.array(episodeSchema).describe("Airings with their own text, by date and start."),
  })
  .meta({
    title: "spi-static episodes",
    description:
      "data/episodes/<service id>/<any name>.yaml: episodes of that service's schedule, e.g. one file per week.",
  });

export type EpisodeInput = z.infer<typeof episodeSchema>;
export type EpisodesFileInput = z.infer<typeof episodesFileSchema>;
