/**
 * xs:dateTime and xs:duration as SPI documents write them. A time point needs a zone (`Z` or
 * an offset) to be an instant, or a zone to read it in (EPG 1.x feeds write local times without
 * one); durations are days, hours, minutes and seconds (SPI never uses
 * years or months, whose length depends on the calendar).
 */

import { isCalendarDate } from "../../time/plainDate.js";
import { resolveWallTime } from "../../time/wallClock.js";

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** UTC ms, or undefined for text that is not a zoned xs:dateTime. */
export function parseTimePoint(text: string): number | undefined {
  const value = text.trim();
  if (!DATE_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const WALL_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?$/;

/** UTC ms of an xs:dateTime without a zone, read as a wall time in `zone`. */
export function parseWallTime(text: string, zone: string): number | undefined {
  const [, date = "", hours = "", minutes = "", seconds = "0"] = WALL_TIME.exec(text.trim()) ?? [];
  if (!isCalendarDate(date) || Number(hours) > 23 || Number(minutes) > 59) return undefined;
  const wall = resolveWallTime(zone, date, Number(hours) * 60 + Number(minutes));
  return wall + Math.round(Number(seconds) * 1000);
}

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** Milliseconds, or undefined for text that is not a day-time xs:duration. */
export function parseDuration(text: string): number | undefined {
  const value = text.trim();
  const parts = DURATION.exec(value);
  if (!parts || value === "P" || value.endsWith("T")) return undefined;
  const [, days = "0", hours = "0", minutes = "0", seconds = "0"] = parts;
  return (
    ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 +
    Math.round(Number(seconds) * 1000)
  );
}
