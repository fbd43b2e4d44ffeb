import { weekdayNames } from "../../time/plainDate.js";
import type { Schedule } from "../model/broadcaster.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "../text/inputProblem.js";
import { clock, DAY, forEachSlotAndNext, slotEnd } from "./slotSequence.js";

/** TS 102 818 §5.2.5: durations over 18 hours should be avoided (binary-encoding receivers). */
const LONGEST = 18 * 60;

/**
 * Warnings for slots that run longer than 18 hours of wall-clock time, most often the one slot
 * of a day that runs on until the next day's first. Specials that cut a slot are not counted.
 */
export function findLongProgrammes(schedule: Schedule): InputProblem[] {
  const long = new Map<string, { origin: SourceRef; from: number; to: number; days: string[] }>();
  forEachSlotAndNext(schedule, (slot, nextStart, day) => {
    const end = slotEnd(slot, nextStart);
    if (end === undefined || end - slot.start <= LONGEST) return;
    const key = `${formatSourceRef(slot.origin)} ${end}`;
    const entry = long.get(key) ?? { origin: slot.origin, from: slot.start, to: end, days: [] };
    if (!entry.days.includes(day)) entry.days.push(day);
    long.set(key, entry);
  });

  return [...long.values()].map(({ origin, from, to, days }) => ({
    ...origin,
    severity: "warning",
    message: `runs ${hours(to - from)} (${clock(from)} to ${clock(to)}${later(to)}) on ${onDays(days)}: TS 102 818 §5.2.5 advises against programmes over 18 hours; add a slot to split it`,
  }));
}

function later(end: number): string {
  const days = Math.floor(end / DAY);
  return days === 0 ? "" : days === 1 ? " the next day" : ` ${days} days later`;
}

function onDays(days: string[]): string {
  const weekdays = days.filter((day) => (weekdayNames as readonly string[]).includes(day));
  if (weekdays.length < 7) return days.join(", ");
  return ["every day", ...days.filter((day) => !weekdays.includes(day))].join(", ");
}

function hours(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? `${h} hours` : `${h} h ${m} min`;
}
