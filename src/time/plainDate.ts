/**
 * Calendar dates without a time or zone, as ISO strings (`2026-11-23`). All arithmetic goes
 * through UTC so the host's time zone can never shift a day.
 */
export type PlainDate = string;

const DAY_MS = 86_400_000;

/** The instant of the date's midnight in UTC, ms. */
export function toUtcMs(date: PlainDate): number {
  return Date.UTC(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
}

function fromUtcMs(ms: number): PlainDate {
  return new Date(ms).toISOString().slice(0, 10);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A `YYYY-MM-DD` date that exists, by arithmetic rather than a round trip through Date (the
 * load stage checks one per episode). Years before 100 are refused: Date.UTC reads them as
 * 1900–1999, so no date arithmetic here could reach them.
 */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  if (year < 100 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] as number));
}

export function addDays(date: PlainDate, days: number): PlainDate {
  return fromUtcMs(toUtcMs(date) + days * DAY_MS);
}

/** Days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: PlainDate, to: PlainDate): number {
  return Math.round((toUtcMs(to) - toUtcMs(from)) / DAY_MS);
}

/** 0 = Monday … 6 = Sunday. */
export function weekdayIndex(date: PlainDate): number {
  return (new Date(toUtcMs(date)).getUTCDay() + 6) % 7;
}

/** The weekdays as the data files name them, Monday first (weekdayIndex's order). */
export const weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof weekdayNames)[number];

export function weekdayOf(date: PlainDate): Weekday {
  return weekdayNames[weekdayIndex(date)] as Weekday;
}

/** `20261123`: the date as it appears in PI file names. */
export function compactDate(date: PlainDate): string {
  return date.replaceAll("-", "");
}

export function dateRange(from: PlainDate, to: PlainDate): PlainDate[] {
  const count = daysBetween(from, to) + 1;
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(from, i));
}
