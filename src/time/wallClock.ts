import { tzOffset } from "@date-fns/tz";
import { boundedMemo } from "../memo/boundedMemo.js";
import { type PlainDate, toUtcMs } from "./plainDate.js";

/**
 * Wall-clock time in an IANA zone ↔ UTC instants, with our own rule for the DST switch hours.
 * Only UTC offsets looked up per instant are used (Intl, via tzOffset), never the host's zone:
 * `@date-fns/tz` resolves nonexistent and repeated local times differently per host TZ.
 *
 * The rule:
 * - a local time that occurs twice (the repeated hour when clocks go back) is its first
 *   occurrence, still on summer time;
 * - a local time that does not exist (the hour skipped when clocks go forward) is the instant
 *   the clocks jump, so a slot billed at 02:30 on that night starts at 03:00 summer time.
 *
 * Like the resolver, the shortcuts below rely on a zone never changing its offset twice within
 * 24 hours: the same offset at two UTC midnights a day apart means no change between them.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The UTC instant (ms) of a number of minutes after local midnight on one date in one zone. */
export type WallTimes = (minutes: number) => number;

// An Intl offset lookup costs microseconds, and a build asks for the same zone, instant and day
// again and again (every service on the same grid, every day's neighbours): each answer is kept,
// per zone.
const offsetsIn = boundedMemo((zone: string) =>
  boundedMemo((instant: number) => tzOffset(zone, new Date(instant))),
);
const wallTimesIn = boundedMemo((zone: string) =>
  boundedMemo((date: PlainDate) => wallTimesUncached(zone, date)),
);
/** Days since 1970-01-01 (UTC) → the offset held all that day, or NaN if it changes. */
const steadyOffsetsIn = boundedMemo((zone: string) =>
  boundedMemo((utcDay: number) => {
    const offset = offsetMinutes(zone, utcDay * DAY_MS);
    return offsetMinutes(zone, (utcDay + 1) * DAY_MS) === offset ? offset : Number.NaN;
  }),
);
/** Days since 1970-01-01 → the ISO date: every programme asks for its billed date. */
const dateOfDay = boundedMemo(
  (day: number): PlainDate => new Date(day * DAY_MS).toISOString().slice(0, 10),
);

/** UTC offset of `zone` at `instant`, in minutes east of Greenwich. */
export function offsetMinutes(zone: string, instant: number): number {
  return offsetsIn(zone)(instant);
}

/** The UTC instant (ms) of `minutes` after local midnight on `date` in `zone`. */
export function resolveWallTime(zone: string, date: PlainDate, minutes: number): number {
  return wallTimesOn(zone, date)(minutes);
}

/**
 * resolveWallTime for one zone and date, to call for each time of that day. A day whose offset
 * holds from the UTC midnight before it to the one two days after (everything the resolver looks
 * at) is plain arithmetic; a day near an offset change is resolved time by time.
 */
export function wallTimesOn(zone: string, date: PlainDate): WallTimes {
  return wallTimesIn(zone)(date);
}

function wallTimesUncached(zone: string, date: PlainDate): WallTimes {
  const midnight = toUtcMs(date);
  const offset = offsetMinutes(zone, midnight);
  const steady =
    offsetMinutes(zone, midnight - DAY_MS) === offset &&
    offsetMinutes(zone, midnight + DAY_MS) === offset &&
    offsetMinutes(zone, midnight + 2 * DAY_MS) === offset;
  if (steady) return (minutes) => midnight + minutes * MINUTE_MS - offset * MINUTE_MS;
  return boundedMemo((minutes: number) => resolveExactly(zone, midnight + minutes * MINUTE_MS));
}

/** The instant of the wall time that reads `asIfUtc` on a UTC clock, by the rule above. */
function resolveExactly(zone: string, asIfUtc: number): number {
  // Any offset in force near this wall time is in force 1 day before or after it.
  const before = offsetMinutes(zone, asIfUtc - 24 * HOUR_MS);
  const after = offsetMinutes(zone, asIfUtc + 24 * HOUR_MS);
  const matches = [...new Set([before, after])]
    .map((offset) => asIfUtc - offset * MINUTE_MS)
    .filter((instant) => asIfUtc - offsetMinutes(zone, instant) * MINUTE_MS === instant)
    .sort((a, b) => a - b);
  if (matches[0] !== undefined) return matches[0];
  return transitionInstant(zone, asIfUtc - after * MINUTE_MS, asIfUtc - before * MINUTE_MS);
}

/** The first instant in (low, high] whose offset differs from the offset at `low`. */
function transitionInstant(zone: string, low: number, high: number): number {
  const startOffset = offsetMinutes(zone, low);
  let lo = low;
  let hi = high;
  while (hi - lo > MINUTE_MS) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
    if (offsetMinutes(zone, mid) === startOffset) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The local calendar date in `zone` at `instant`. */
export function localDateOf(zone: string, instant: number): PlainDate {
  const steadyOffset = steadyOffsetsIn(zone)(Math.floor(instant / DAY_MS));
  const offset = Number.isNaN(steadyOffset) ? offsetMinutes(zone, instant) : steadyOffset;
  return dateOfDay(Math.floor((instant + offset * MINUTE_MS) / DAY_MS));
}

/** The local time of day in `zone` at `instant`, in minutes after midnight. */
export function localMinutesOf(zone: string, instant: number): number {
  const local = instant + offsetMinutes(zone, instant) * MINUTE_MS;
  return Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
}

/** Minutes after midnight as "HH:MM". */
export function formatTimeOfDay(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
