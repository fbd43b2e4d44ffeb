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
 * `programmes` must be sorted by start and must not overlap, as expandSchedule lays them out.
 */
export function selectProgrammeDay(
  programmes: readonly ProgrammeInstance[],
  zone: string,
  date: PlainDate,
  marginHours: number,
): ProgrammeDay {
  const dayStart = resolveWallTime(zone, date, 0);
  const dayEnd = resolveWallTime(zone, addDays(date, 1), 0);
  const margin = marginHours * 3_600_000;
  let from = firstStartingAt(programmes, dayStart - margin);
  // Only the programme before can still be on air at midnight: none overlaps the next.
  while (from > 0 && isOnAirAt(programmes[from - 1] as ProgrammeInstance, dayStart)) from--;
  const selected = programmes.slice(from, firstStartingAt(programmes, dayEnd + margin));
  const first = selected[0];
  const last = selected[selected.length - 1];
  return {
    date,
    programmes: selected,
    scopeStart: first ? Math.min(first.start, dayStart) : dayStart,
    scopeEnd: last ? Math.max(...selected.map((p) => p.end), dayEnd) : dayEnd,
  };
}

function isOnAirAt(programme: ProgrammeInstance, instant: number): boolean {
  return programme.start < instant && programme.end > instant;
}

/** The index of the first programme starting at or after `instant` (binary search). */
function firstStartingAt(programmes: readonly ProgrammeInstance[], instant: number): number {
  let low = 0;
  let high = programmes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((programmes[middle] as ProgrammeInstance).start < instant) low = middle + 1;
    else high = middle;
  }
  return low;
}
