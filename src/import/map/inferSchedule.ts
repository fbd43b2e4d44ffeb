import type { DatedEntry, GridSlotInput, ScheduleInput } from "../../load/schema/scheduleSchema.js";
import { type PlainDate, type Weekday, weekdayIndex, weekdayNames } from "../../time/plainDate.js";
import { localDateOf, resolveWallTime } from "../../time/wallClock.js";
import type { ImportNote } from "../importNote.js";
import { type DaySlot, findSpecials, sameSlots } from "./findSpecials.js";
import { localDateAndClock } from "./localTime.js";

/** An airing with its show: UTC instants (ms), in order, none overlapping another's start. */
export interface ShowAiring {
  start: number;
  end: number;
  showId: string;
  origin: string;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The weekly grid and the dated entries that reproduce a service's airings. A weekday gets a
 * grid only where the feed shows it really repeating: the same slots on at least two of its
 * dates. Every covered date that differs (and every weekday without a grid) becomes a dated
 * entry: another weekday's grid (`like`) where that is what it ran, else its own slots.
 * `coveredDays` are the days the feed has a whole PI document for; of the days around them the
 * feed shows only some programmes, which get a dated entry only where the grid disagrees.
 */
export function inferSchedule(
  airings: readonly ShowAiring[],
  coveredDays: ReadonlySet<PlainDate>,
  zone: string,
  notes: ImportNote[],
): Pick<ScheduleInput, "grid" | "dates"> {
  const days = slotsByDay(airings, zone, notes);

  const gridOf = new Map<number, DaySlot[]>();
  for (let weekday = 0; weekday < 7; weekday++) {
    const dates = [...coveredDays].filter((d) => weekdayIndex(d) === weekday).sort();
    const candidates = dates.map((d) => days.get(d) ?? []).filter((s) => s.length > 0);
    let best: { slots: DaySlot[]; same: number; explained: number } | undefined;
    for (const candidate of candidates) {
      const same = candidates.filter((other) => sameSlots(candidate, other)).length;
      const explained = candidates.filter(
        (other) => sameSlots(candidate, other) || findSpecials(candidate, other),
      ).length;
      const better =
        !best ||
        same > best.same ||
        (same === best.same && explained > best.explained) ||
        (same === best.same &&
          explained === best.explained &&
          candidate.every((s) => !s.openEnd) &&
          best.slots.some((s) => s.openEnd));
      if (better) best = { slots: candidate, same, explained };
    }
    // A grid where the weekday repeats: on two dates alike, or alike but for specials.
    if (best && best.explained >= 2) gridOf.set(weekday, best.slots);
  }
  // A weekday seen too seldom to repeat on its own repeats what other weekdays run.
  for (let weekday = 0; weekday < 7; weekday++) {
    if (gridOf.has(weekday)) continue;
    const dates = [...coveredDays].filter((d) => weekdayIndex(d) === weekday).sort();
    const shared = dates
      .map((d) => [...gridOf.values()].find((grid) => sameSlots(grid, days.get(d) ?? [])))
      .find((grid) => grid !== undefined);
    if (shared) gridOf.set(weekday, shared);
  }

  const grid: ScheduleInput["grid"] = [];
  const grouped = new Map<string, number[]>();
  for (const [weekday, slots] of [...gridOf].sort((a, b) => a[0] - b[0])) {
    const key = JSON.stringify(slots.map(plainSlot));
    grouped.set(key, [...(grouped.get(key) ?? []), weekday]);
  }
  for (const [key, weekdays] of grouped) {
    grid.push({ days: weekdaySet(weekdays), slots: JSON.parse(key) as GridSlotInput[] });
  }

  const dates: DatedEntry[] = [];
  for (const [date, slots] of [...days].sort((a, b) => a[0].localeCompare(b[0]))) {
    const weekday = weekdayIndex(date);
    const own = gridOf.get(weekday);
    if (!coveredDays.has(date)) {
      if (!own || !partOf(slots, own)) dates.push({ date, slots: slots.map(plainSlot) });
      continue;
    }
    dates.push(...datedEntry(date, slots, weekday, gridOf));
  }
  for (const date of coveredDays) {
    if (!days.has(date)) {
      notes.push({
        origin: date,
        message: "the feed lists no programme starting on this day: it follows the grid",
      });
    }
  }
  return { grid, ...(dates.length > 0 ? { dates } : {}) };
}

/** Each local day's slots, the airings billed to start on it. */
function slotsByDay(
  airings: readonly ShowAiring[],
  zone: string,
  notes: ImportNote[],
): Map<PlainDate, DaySlot[]> {
  const days = new Map<PlainDate, DaySlot[]>();
  airings.forEach((airing, index) => {
    const date = localDateOf(zone, airing.start);
    const start = wallTime(zone, date, airing.start, airing.origin, "start", notes);
    if (start === undefined) return;
    const next = airings[index + 1];
    let end: string | undefined;
    if (airing.end - airing.start >= DAY_MS) {
      notes.push({
        origin: airing.origin,
        message: "a programme of 24 hours or more cannot be a slot: it runs until the next slot",
      });
    } else if (next === undefined || next.start > airing.end) {
      end = wallTime(zone, localDateOf(zone, airing.end), airing.end, airing.origin, "end", notes);
    } else if (next.start < airing.end) {
      notes.push({
        origin: airing.origin,
        message: "the programme overlaps the next one: it is cut where the next one starts",
      });
    }
    const slot: DaySlot = {
      start,
      show: airing.showId,
      ...(end !== undefined ? { end } : {}),
      openEnd: next === undefined,
    };
    days.set(date, [...(days.get(date) ?? []), slot]);
  });
  return days;
}

/**
 * What a covered day needs besides the grid: nothing, another weekday's grid (`like`), specials
 * over its own grid or another's, or else its own slots.
 */
function datedEntry(
  date: PlainDate,
  slots: readonly DaySlot[],
  weekday: number,
  gridOf: ReadonlyMap<number, DaySlot[]>,
): DatedEntry[] {
  const own = gridOf.get(weekday);
  if (own && sameSlots(own, slots)) return [];
  const grids = [...gridOf].sort((a, b) => Number(b[0] === weekday) - Number(a[0] === weekday));
  for (const [other, grid] of grids) {
    if (other !== weekday && sameSlots(grid, slots)) {
      return [{ date, like: weekdayNames[other] as Weekday }];
    }
  }
  for (const [other, grid] of grids) {
    const specials = findSpecials(grid, slots);
    if (!specials) continue;
    return [
      {
        date,
        ...(other !== weekday ? { like: weekdayNames[other] as Weekday } : {}),
        specials,
      },
    ];
  }
  return [{ date, slots: slots.map(plainSlot) }];
}

/** "HH:MM" of an instant in the zone, if that wall time means this very instant. */
function wallTime(
  zone: string,
  date: PlainDate,
  instant: number,
  origin: string,
  what: "start" | "end",
  notes: ImportNote[],
): string | undefined {
  const { clock: text, minutes } = localDateAndClock(zone, instant);
  if (resolveWallTime(zone, date, minutes) !== instant) {
    const reason =
      instant % MINUTE_MS !== 0
        ? "is not on a whole minute"
        : "falls in the hour the clocks repeat, and a wall time there means its first occurrence";
    notes.push({
      origin,
      message: `the ${what} ${new Date(instant).toISOString()} ${reason}: imported as ${text} (${date})`,
    });
  }
  return text;
}

function plainSlot(slot: DaySlot): GridSlotInput {
  return {
    start: slot.start,
    ...(slot.end !== undefined ? { end: slot.end } : {}),
    show: slot.show,
  };
}

/** The slots the feed shows of a day it does not cover are a run of the grid's slots. */
function partOf(slots: readonly DaySlot[], grid: readonly DaySlot[]): boolean {
  const first = grid.findIndex((g) => g.start === slots[0]?.start);
  if (first === -1) return false;
  return slots.every((slot, i) => {
    const g = grid[first + i];
    if (!g || g.start !== slot.start || g.show !== slot.show) return false;
    // The last slot seen may be followed by what the feed does not show.
    return g.end === slot.end || slot.openEnd || i === slots.length - 1;
  });
}

/** `daily`, `mon-fri`, `sat`, or a list such as `[sat, sun]`. */
function weekdaySet(weekdays: number[]): ScheduleInput["grid"][number]["days"] {
  const names = weekdays.map((w) => weekdayNames[w] as Weekday);
  if (weekdays.length === 7) return "daily";
  if (weekdays.length === 1) return names[0] as Weekday;
  const first = weekdays[0] ?? 0;
  const contiguous = weekdays.every((w, i) => w === first + i);
  return contiguous ? `${names[0]}-${names[names.length - 1]}` : names;
}
