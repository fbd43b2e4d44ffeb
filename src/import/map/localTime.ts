import { addDays, type PlainDate, toUtcMs, weekdayIndex } from "../../time/plainDate.js";
import { localDateOf, offsetMinutes } from "../../time/wallClock.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The local date and "HH:MM" of an instant in a zone (seconds dropped). */
export function localDateAndClock(
  zone: string,
  instant: number,
): { date: PlainDate; clock: string; minutes: number } {
  const local = instant + offsetMinutes(zone, instant) * MINUTE_MS;
  const minutes = Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
  const clock = `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
  return { date: localDateOf(zone, instant), clock, minutes };
}

/** `2026-W48`: the ISO week a date is in (weeks start on Monday; week 1 holds a Thursday). */
export function isoWeekOf(date: PlainDate): string {
  const thursday = addDays(date, 3 - weekdayIndex(date));
  const year = thursday.slice(0, 4);
  const week = Math.floor((toUtcMs(thursday) - toUtcMs(`${year}-01-01`)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, "0")}`;
}
