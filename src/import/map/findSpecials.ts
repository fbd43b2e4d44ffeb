import type { GridSlotInput } from "../../load/schema/scheduleSchema.js";

/**
 * A day's slots explained as a grid with specials laid over it, the way the build lays them:
 * what a special covers is cut away, and the rest of a cut slot stays on air before and after.
 * Times are minutes after midnight; DST nights are left to dated slots.
 */

/** A slot of one day; `openEnd`: nothing is known to follow it. */
export interface DaySlot extends GridSlotInput {
  openEnd: boolean;
}

export interface SpecialInput {
  start: string;
  end: string;
  show: string;
}

interface Piece {
  start: number;
  end: number;
  show: string;
  /** The slot's end was given (a gap follows), not the next slot's start. */
  ownEnd: boolean;
}

const DAY_MINUTES = 1440;

/** The specials that turn `grid` into `day`, or undefined when no set of specials does. */
export function findSpecials(
  grid: readonly DaySlot[],
  day: readonly DaySlot[],
): SpecialInput[] | undefined {
  const gridPieces = piecesOf(grid);
  const dayPieces = piecesOf(day);
  const specials: Piece[] = [];
  for (const piece of dayPieces) {
    if (grid.some((g) => minutesOf(g.start) === piece.start && g.show === piece.show)) continue;
    const last = specials[specials.length - 1];
    const cut = gridPieces.find((g) => g.start < piece.start && piece.start < g.end);
    if (last?.end === piece.start && cut?.show === piece.show) continue;
    if (!Number.isFinite(piece.end)) return undefined;
    specials.push(piece);
  }
  // A day that is mostly one-offs is a day of its own, not the grid with exceptions.
  if (specials.length === 0 || specials.length * 2 >= day.length) return undefined;
  if (!sameSlots(overlay(gridPieces, specials), day)) return undefined;
  return specials.map((s) => ({ start: clockOf(s.start), end: clockOf(s.end), show: s.show }));
}

/** Equal slots; an open end (nothing known after it) matches either an end or none. */
export function sameSlots(a: readonly DaySlot[], b: readonly DaySlot[]): boolean {
  return a.length === b.length && a.every((slot, i) => sameSlot(slot, b[i]));
}

function sameSlot(a: DaySlot, b: DaySlot | undefined): boolean {
  if (!b || a.start !== b.start || a.show !== b.show) return false;
  return a.end === b.end || a.openEnd || b.openEnd;
}

function piecesOf(slots: readonly DaySlot[]): Piece[] {
  return slots.map((slot, i) => {
    const start = minutesOf(slot.start);
    const next = slots[i + 1];
    if (slot.end !== undefined) {
      const end = minutesOf(slot.end);
      return { start, end: end > start ? end : end + DAY_MINUTES, show: slot.show, ownEnd: true };
    }
    const end = next ? minutesOf(next.start) : Number.POSITIVE_INFINITY;
    return { start, end, show: slot.show, ownEnd: false };
  });
}

/** The grid's slots cut around the specials, and the specials: the day the build would lay. */
function overlay(grid: readonly Piece[], specials: readonly Piece[]): DaySlot[] {
  const pieces: Piece[] = [];
  for (const slot of grid) {
    let fragments = [slot];
    for (const special of specials) {
      fragments = fragments.flatMap((f) => {
        if (special.end <= f.start || special.start >= f.end) return [f];
        const kept: Piece[] = [];
        if (special.start > f.start) kept.push({ ...f, end: special.start, ownEnd: false });
        if (special.end < f.end) kept.push({ ...f, start: special.end });
        return kept;
      });
    }
    pieces.push(...fragments);
  }
  const all = [...pieces, ...specials.map((s) => ({ ...s, ownEnd: true }))]
    .filter((p) => p.start < DAY_MINUTES)
    .sort((a, b) => a.start - b.start);
  return all.map((piece, i) => {
    const next = all[i + 1];
    const endGiven = piece.ownEnd && Number.isFinite(piece.end) && next?.start !== piece.end;
    return {
      start: clockOf(piece.start),
      show: piece.show,
      ...(endGiven ? { end: clockOf(piece.end) } : {}),
      openEnd: false,
    };
  });
}

function minutesOf(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

function clockOf(minutes: number): string {
  const m = ((minutes % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}
