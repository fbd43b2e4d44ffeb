import type { Schedule, Slot } from "../model/broadcaster.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "../text/inputProblem.js";
import { clock, forEachSlotAndNext, slotEnd } from "./slotSequence.js";

/**
 * Warnings for dead air: a slot whose `end` comes before the next slot starts. Only a slot with
 * an end can leave a gap (one without runs until the next), so this looks at those, on the
 * weekly grid and on every dated day that has its own slots, each against the day after it.
 */
export function findDeadAir(schedule: Schedule): InputProblem[] {
  const gaps = new Map<string, { origin: SourceRef; from: number; to: number; days: string[] }>();
  forEachSlotAndNext(schedule, (slot: Slot, nextStart, day) => {
    if (slot.end === undefined || nextStart === undefined) return;
    const end = slotEnd(slot, nextStart) as number;
    if (end >= nextStart) return;
    const key = `${formatSourceRef(slot.origin)} ${end} ${nextStart}`;
    const gap = gaps.get(key) ?? { origin: slot.origin, from: end, to: nextStart, days: [] };
    gap.days.push(day);
    gaps.set(key, gap);
  });

  return [...gaps.values()].map(({ origin, from, to, days }) => ({
    ...origin,
    severity: "warning",
    message: `dead air from ${clock(from)} to ${clock(to)} on ${days.join(", ")}: this slot ends before the next one starts`,
  }));
}
