import type { EpisodesByDate, Service, Slot } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "../load/text/inputProblem.js";
import { addDays, dateRange, type PlainDate, weekdayOf } from "../time/plainDate.js";
import { localDateOf, type WallTimes, wallTimesOn } from "../time/wallClock.js";
import { attachEpisodes } from "./attachEpisodes.js";
import { programmeCrid, programmeEventCrid, showGroupCrid } from "./programmeCrid.js";
import type { AiringKind, ProgrammeInstance } from "./programmeInstance.js";
import { mergePartProblems, placeProgrammeParts } from "./programmeParts.js";
import { eventShortId, groupShortId, programmeShortId } from "./programmeShortId.js";

interface Airing {
  start: number;
  end: number;
  showId: string;
  crid: string | undefined;
  kind: AiringKind;
  source: Sourced;
}

/** A slot or special on a date; a slot without an end runs until the next one starts. */
interface Placed extends Omit<Airing, "end"> {
  date: PlainDate;
  end: number | undefined;
}

const MINUTE_MS = 60_000;

/** A slot or special: its origin is read only for a message (a slot's is made then). */
type Sourced = ProgrammeInstance["source"];

/** Two slots (or two specials) that overlap: `later` starts before `earlier` ends. */
export interface Overlap {
  later: SourceRef;
  earlier: SourceRef;
  /** The first date it happens on. */
  date: PlainDate;
}

export interface ScheduleExpansion {
  /** Sorted by start; none when there are overlaps. */
  programmes: ProgrammeInstance[];
  /** Each pair of entries once, with the first date they overlap on. */
  overlaps: Overlap[];
  /**
   * Episodes that match no airing or several, events that do not fit, empty on-demand windows:
   * the episodes' by date in date order, then the programme parts', then shared shortIds.
   */
  problems: InputProblem[];
  /** The same, episodes' and parts' only, by billed date (dates with none left out). */
  days: Map<PlainDate, DayParts>;
}

/**
 * What laying out found on one billed date: its episodes' problems (attachEpisodes) and its
 * programmes' parts' (placeProgrammeParts over that date's programmes alone). Either depends on
 * that date's programmes and episodes only.
 */
export interface DayParts {
  attach: InputProblem[];
  parts: InputProblem[];
}

/** The same two entries overlap on every day they recur: one pair, one problem. */
export function overlapKey({ later, earlier }: Overlap): string {
  return `${formatSourceRef(later)} ${formatSourceRef(earlier)}`;
}

export function overlapProblem({ later, earlier, date }: Overlap): InputProblem {
  return {
    ...later,
    severity: "error",
    message: `overlaps ${formatSourceRef(earlier)} (on ${date})`,
  };
}

/**
 * The schedule stage for one service: weekly grid + dated entries → programme instances whose
 * billed local date lies in [from, to]. Slots without an end run until the next slot starts, so
 * a 01:00–04:00 slot lasts 2 h on the spring-forward night and 4 h on the fall-back night.
 * Specials are laid over the grid: the part of a grid programme they cover is cut away, and the
 * rest of it stays on air before and after. Overlaps are returned, naming both entries.
 */
export function expandSchedule(
  service: Service,
  cridAuthority: string,
  from: PlainDate,
  to: PlainDate,
  /** The service's, loaded once for all its expansions (Schedule.episodes). */
  episodes: EpisodesByDate,
): ScheduleExpansion {
  const zone = service.timeZone;
  const overlaps = new Map<string, Overlap>();
  const overlap = (later: SourceRef, earlier: SourceRef, date: PlainDate) => {
    const found = { later, earlier, date };
    const key = overlapKey(found);
    if (!overlaps.has(key)) overlaps.set(key, found);
  };
  const { gridSlots, specialSlots } = placeSlots(service, from, to);
  const grid = chainSlots(gridSlots, overlap);
  specialSlots.sort((a, b) => a.start - b.start);
  const specials = chainSlots(specialSlots, overlap);

  if (overlaps.size > 0) {
    return { programmes: [], overlaps: [...overlaps.values()], problems: [], days: new Map() };
  }

  const airings = [...specials];
  for (const airing of grid) {
    if (specials.length === 0) airings.push(airing);
    else airings.push(...cutAround(airing, specials));
  }
  airings.sort((a, b) => a.start - b.start);
  const programmes = programmeInstances(service, cridAuthority, airings, from, to);
  const uniqueShortIds = service.shortIds === "unique";
  const attached = attachEpisodes(programmes, episodes, zone, from, to);
  const placed = placePartsByDate(programmes, zone);
  const byDate = new Map<PlainDate, DayParts>();
  for (const date of [...new Set([...attached.keys(), ...placed.keys()])].sort()) {
    byDate.set(date, { attach: attached.get(date) ?? [], parts: placed.get(date) ?? [] });
  }
  const problems = [...attached.values()].flat();
  problems.push(...mergePartProblems(placed.values()));
  // Placed all the same, so an event that does not fit is still reported; then left out.
  if (!service.programmeEvents) for (const programme of programmes) programme.events = [];
  for (const programme of programmes) {
    programme.eventIds = programmeEventIds(
      programme,
      uniqueShortIds ? service.shortIdSlot : undefined,
    );
  }
  if (uniqueShortIds)
    problems.push(...sharedShortIds(programmes), ...sharedEventShortIds(programmes));
  return { programmes, overlaps: [], problems, days: byDate };
}

/** The grid's slots and each date's specials, from the day before `from` to the day after `to`. */
function placeSlots(
  { schedule, timeZone }: Service,
  from: PlainDate,
  to: PlainDate,
): { gridSlots: Placed[]; specialSlots: Placed[] } {
  // One day either side, so programmes crossing midnight into the range get their start and end.
  const days = dateRange(addDays(from, -1), addDays(to, 1));
  // Each day's wall times are resolved once; an end at or before its start is the next morning.
  const wallTimes = [...days, addDays(to, 2)].map((date) => wallTimesOn(timeZone, date));
  const instantOf = (day: number, minutes: number) => (wallTimes[day] as WallTimes)(minutes);
  const endOf = (day: number, start: number, end: number) =>
    instantOf(end > start ? day : day + 1, end);
  const gridSlots: Placed[] = [];
  const specialSlots: Placed[] = [];
  days.forEach((date, day) => {
    const dated = schedule.dates.get(date);
    for (const slot of sortedByStart(dated?.slots ?? schedule.week[weekdayOf(date)])) {
      gridSlots.push({
        date,
        start: instantOf(day, slot.start),
        end: slot.end === undefined ? undefined : endOf(day, slot.start, slot.end),
        showId: slot.show,
        crid: undefined,
        kind: dated?.slots ? "dated" : "grid",
        source: slot,
      });
    }
    for (const special of dated?.specials ?? []) {
      specialSlots.push({
        date,
        start: instantOf(day, special.start),
        end: endOf(day, special.start, special.end),
        showId: special.show,
        crid: special.crid,
        kind: "special",
        source: special,
      });
    }
  });
  return { gridSlots, specialSlots };
}

/** The airings billed in [from, to] as programmes, with their CRIDs and shortIds. */
function programmeInstances(
  service: Service,
  cridAuthority: string,
  airings: readonly Airing[],
  from: PlainDate,
  to: PlainDate,
): ProgrammeInstance[] {
  const groupCrids = new Map<string, string>();
  const uniqueShortIds = service.shortIds === "unique";
  const programmes: ProgrammeInstance[] = [];
  for (const airing of airings) {
    const billedDate = localDateOf(service.timeZone, airing.start);
    if (billedDate < from || billedDate > to) continue;
    const show = service.schedule.shows[airing.showId];
    if (!show) throw new Error(`show ${airing.showId} vanished after loading`);
    let groupCrid = groupCrids.get(airing.showId);
    if (groupCrid === undefined) {
      groupCrid = show.group ?? showGroupCrid(cridAuthority, service.id, airing.showId);
      groupCrids.set(airing.showId, groupCrid);
    }
    const derivedCrid = programmeCrid(cridAuthority, service.id, airing.start);
    programmes.push({
      crid: airing.crid ?? derivedCrid,
      derivedCrid: airing.crid === undefined || airing.crid === derivedCrid,
      shortId: uniqueShortIds ? programmeShortId(service.shortIdSlot, airing.start) : 0,
      groupCrid,
      groupShortId: show.groupShortId ?? (uniqueShortIds ? groupShortId(groupCrid) : 0),
      showId: airing.showId,
      show,
      content: show,
      episode: undefined,
      events: [],
      eventIds: [],
      start: airing.start,
      end: airing.end,
      billedDate,
      kind: airing.kind,
      source: airing.source,
    });
  }
  return programmes;
}

/**
 * The programme parts' problems, placed date by date (programmes are sorted by start, so each
 * date's are a run), so that what each date found can be kept on its own (DayParts); merged,
 * it is the same.
 */
function placePartsByDate(
  programmes: readonly ProgrammeInstance[],
  zone: string,
): Map<PlainDate, InputProblem[]> {
  const placed = new Map<PlainDate, InputProblem[]>();
  for (let first = 0, next = 1; first < programmes.length; next++) {
    const date = (programmes[first] as ProgrammeInstance).billedDate;
    if (next < programmes.length && programmes[next]?.billedDate === date) continue;
    const found = placeProgrammeParts(programmes.slice(first, next), zone);
    if (found.length > 0) placed.set(date, found);
    first = next;
  }
  return placed;
}

/**
 * Each placed event's CRID (programmeEventCrid: from its offset, not its place among the
 * others) and shortId: with a slot (`shortIds: unique`) from the event's start, as a
 * programme's is.
 */
function programmeEventIds(programme: ProgrammeInstance, slot: number | undefined) {
  const atOffset = new Map<number, number>();
  return programme.events.map(({ offset }) => {
    const nth = (atOffset.get(offset) ?? 0) + 1;
    atOffset.set(offset, nth);
    const start = programme.start + offset * MINUTE_MS;
    return {
      crid: programmeEventCrid(programme.crid, offset, nth),
      shortId: slot === undefined ? 0 : eventShortId(slot, start),
    };
  });
}

/**
 * Two events of one programme that start in the same minute would share a shortId; events of
 * different programmes never do, as programmes do not overlap and an event stays inside its own.
 */
function sharedEventShortIds(programmes: readonly ProgrammeInstance[]): InputProblem[] {
  const problems: InputProblem[] = [];
  const reported = new Set<SourceRef>();
  for (const programme of programmes) {
    programme.eventIds.forEach(({ shortId }, i) => {
      const before = programme.eventIds[i - 1];
      const event = programme.events[i]?.event;
      const earlier = programme.events[i - 1]?.event;
      if (before?.shortId !== shortId || !event || !earlier || reported.has(event.origin)) return;
      reported.add(event.origin);
      problems.push({
        ...event.origin,
        severity: "error",
        message: `starts in the same minute as ${formatSourceRef(earlier.origin)}, so the two would share shortId ${shortId} (shortIds: unique)`,
      });
    });
  }
  return problems;
}

/**
 * Programmes (in start order) whose shortId an earlier one has: only possible for two starts in
 * one UTC minute, which minute-aligned grid times never give; refused so that it never happens.
 */
function sharedShortIds(programmes: readonly ProgrammeInstance[]): InputProblem[] {
  const problems: InputProblem[] = [];
  programmes.forEach((programme, i) => {
    const before = programmes[i - 1];
    if (before && before.shortId === programme.shortId) {
      problems.push({
        ...programme.source.origin,
        severity: "error",
        message: `starts in the same minute as ${formatSourceRef(before.source.origin)}, so the two would share shortId ${programme.shortId} (shortIds: unique)`,
      });
    }
  });
  return problems;
}

/** Slots in start order; the days of a weekly grid share their arrays, so each is sorted once. */
const sortedSlots = new WeakMap<readonly Slot[], readonly Slot[]>();

function sortedByStart(slots: readonly Slot[]): readonly Slot[] {
  let sorted = sortedSlots.get(slots);
  if (sorted === undefined) {
    sorted = [...slots].sort((a, b) => a.start - b.start);
    sortedSlots.set(slots, sorted);
  }
  return sorted;
}

/**
 * Gives each slot its end (its own, or the next slot's start) and reports overlaps. Two slots
 * that resolve to the same instant (both inside the hour skipped at the spring-forward switch)
 * leave the earlier one with no airtime: it is dropped, not reported.
 */
function chainSlots(
  slots: Placed[],
  overlap: (later: SourceRef, earlier: SourceRef, date: PlainDate) => void,
): Airing[] {
  const airings: Airing[] = [];
  slots.forEach((slot, i) => {
    const next = slots[i + 1];
    const end = slot.end ?? next?.start;
    if (end === undefined) return; // the last slot of the range: its end lies beyond it
    if (next && end > next.start) overlap(next.source.origin, slot.source.origin, next.date);
    if (end > slot.start) {
      const { start, showId, crid, kind, source } = slot;
      airings.push({ start, end, showId, crid, kind, source });
    }
  });
  return airings;
}

/** The parts of a grid airing not covered by any special. */
function cutAround(airing: Airing, specials: Airing[]): Airing[] {
  let pieces = [airing];
  for (const special of specials) {
    if (special.end <= airing.start || special.start >= airing.end) continue;
    pieces = pieces.flatMap((piece) => {
      if (special.end <= piece.start || special.start >= piece.end) return [piece];
      const kept: Airing[] = [];
      if (special.start > piece.start)
        kept.push({ ...piece, end: Math.min(piece.end, special.start) });
      if (special.end < piece.end)
        kept.push({ ...piece, start: Math.max(piece.start, special.end) });
      return kept.filter((k) => k.end > k.start);
    });
  }
  return pieces;
}
