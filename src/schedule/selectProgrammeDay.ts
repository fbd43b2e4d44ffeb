import type { PlainDate } from "../time/plainDate.js";
import { addDays } from "../time/plainDate.js";
import { resolveWallTime } from "../time/wallClock.js";
import type { ProgrammeInstance } from "./programmeInstance.js";

export interface ProgrammeDay {
  date: PlainDate;
  programmes: ProgrammeInstance[];
  /** The span the document covers (its `scope`), UTC ms. */
  scopeStart: number;
  scopeEnd: number;
}

/**
 * What one PI document lists for local day `date`: every programme billed to start that day,
 * the programmes of the previous and the next day that start within `marginHours` of it, and
 * the one still on air at local midnight (so a receiver knows what is playing at 00:30).
 * `programmes` must be sorted by start.
 */
export function selectProgrammeDay(
  programmes: ProgrammeInstance[],
  zone: string,
  date: PlainDate,
  marginHours: number,
): ProgrammeDay {
  const dayStart = resolveWallTime(zone, date, 0);
  const dayEnd = resolveWallTime(zone, addDays(date, 1), 0);
  const margin = marginHours * 3_600_000;
  const selected = programmes.filter(
    (p) =>
      (p.start >= dayStart - margin && p.start < dayEnd + margin) ||
      (p.start < dayStart && p.end > dayStart),
  );
  const first = selected[0];
  const last = selected[selected.length - 1];
  return {
    date,
    programmes: selected,
    scopeStart: first ? Math.min(first.start, dayStart) : dayStart,
    scopeEnd: last ? Math.max(...selected.map((p) => p.end), dayEnd) : dayEnd,
  };
}
