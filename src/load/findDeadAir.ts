import {
  addDays,
  type PlainDate,
  type Weekday,
  weekdayNames,
  weekdayOf,
} from "../time/plainDate.js";
import type { Schedule, Slot } from "./broadcaster.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "./inputProblem.js";

const DAY = 24 * 60;

/**
 * Warnings for dead air: a slot whose `end` comes before the next slot starts. Only a slot with
 * an end can leave a gap (one without runs until the next), so this looks at those, on the
 * weekly grid and on every dated day that has its own slots, each against the day after it.
 */
export function findDeadAir(schedule: Schedule): InputProblem[] {
  const gaps = new Map<string, { origin: SourceRef; from: number; to: number; days: string[] }>();
  const check = (slot: Slot, nextStart: number | undefined, day: string) => {
    if (slot.end === undefined || nextStart === undefined) return;
    const end = slot.end > slot.start ? slot.end : slot.end + DAY;
    if (end >= nextStart) return;
    const key = `${formatSourceRef(slot.origin)} ${end} ${nextStart}`;
    const gap = gaps.get(key) ?? { origin: slot.origin, from: end, to: nextStart, days: [] };
    gap.days.push(day);
    gaps.set(key, gap);
  };

  weekdayNames.forEach((day, w) => {
    const slots = sortedByStart(schedule.week[day]);
    slots.forEach((slot, i) => {
      check(slot, slots[i + 1]?.start ?? nextGridStart(schedule, w), day);
    });
  });

  for (const dated of schedule.dates.values()) {
    if (!dated.slots) continue;
    const slots = sortedByStart(dated.slots);
    const following = sortedByStart(slotsOn(schedule, addDays(dated.date, 1)))[0];
    slots.forEach((slot, i) => {
      const next = slots[i + 1]?.start ?? (following ? following.start + DAY : undefined);
      check(slot, next, dated.date);
    });
    // A grid day before this one was checked against the grid's next day, not against this one.
    const before = addDays(dated.date, -1);
    const last = sortedByStart(slotsOn(schedule, before)).at(-1);
    if (!schedule.dates.get(before)?.slots && last && slots[0]) {
      check(last, slots[0].start + DAY, before);
    }
  }

  return [...gaps.values()].map(({ origin, from, to, days }) => ({
    ...origin,
    severity: "warning",
    message: `dead air from ${clock(from)} to ${clock(to)} on ${days.join(", ")}: this slot ends before the next one starts`,
  }));
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

function clock(minutes: number): string {
  const m = minutes % DAY;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}
