import {
  addDays,
  type PlainDate,
  type Weekday,
  weekdayNames,
  weekdayOf,
} from "../../time/plainDate.js";
import type { Schedule, Slot } from "../model/broadcaster.js";

/** Minutes in a day: slot times are minutes after local midnight. */
export const DAY = 24 * 60;

/**
 * Calls `visit` for every slot of the weekly grid and of each dated day with its own slots, with
 * the start of the slot after it (minutes from the slot's own midnight; the next day's first
 * slot counts 24 h later), or undefined when no slot follows at all. `day` names the weekday or
 * date. The grid day before a dated day is visited once more, against the dated day's first slot.
 */
export function forEachSlotAndNext(
  schedule: Schedule,
  visit: (slot: Slot, nextStart: number | undefined, day: string) => void,
): void {
  weekdayNames.forEach((day, w) => {
    const slots = sortedByStart(schedule.week[day]);
    slots.forEach((slot, i) => {
      visit(slot, slots[i + 1]?.start ?? nextGridStart(schedule, w), day);
    });
  });

  for (const dated of schedule.dates.values()) {
    if (!dated.slots) continue;
    const slots = sortedByStart(dated.slots);
    const following = sortedByStart(slotsOn(schedule, addDays(dated.date, 1)))[0];
    slots.forEach((slot, i) => {
      const next = slots[i + 1]?.start ?? (following ? following.start + DAY : undefined);
      visit(slot, next, dated.date);
    });
    // A grid day before this one was visited against the grid's next day, not against this one.
    const before = addDays(dated.date, -1);
    const last = sortedByStart(slotsOn(schedule, before)).at(-1);
    if (!schedule.dates.get(before)?.slots && last && slots[0]) {
      visit(last, slots[0].start + DAY, before);
    }
  }
}

/** Where a slot ends, in minutes from its midnight: its own end (past midnight when earlier
 * than its start), else the next slot's start. */
export function slotEnd(slot: Slot, nextStart: number | undefined): number | undefined {
  if (slot.end === undefined) return nextStart;
  return slot.end > slot.start ? slot.end : slot.end + DAY;
}

/** `06:30` for 390 (or 1830) minutes. */
export function clock(minutes: number): string {
  const m = minutes % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

function sortedByStart(slots: readonly Slot[]): readonly Slot[] {
  return [...slots].sort((a, b) => a.start - b.start);
}

/** Start of the first slot after weekday `w`'s, in minutes from `w`'s midnight. */
function nextGridStart(schedule: Schedule, w: number): number | undefined {
  for (let k = 1; k <= 7; k++) {
    const day = weekdayNames[(w + k) % 7] as Weekday;
    const first = sortedByStart(schedule.week[day])[0];
    if (first) return first.start + k * DAY;
  }
  return undefined;
}

function slotsOn(schedule: Schedule, date: PlainDate): readonly Slot[] {
  return schedule.dates.get(date)?.slots ?? schedule.week[weekdayOf(date)];
}
