import type { Service, Slot } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem } from "../load/text/inputProblem.js";
import { addDays, dateRange, daysBetween, type PlainDate, weekdayOf } from "../time/plainDate.js";
import { localDateOf, resolveWallTime } from "../time/wallClock.js";
import { dayMajorityOn } from "./dayMajority.js";
import { type DayParts, expandSchedule } from "./expandSchedule.js";
import type { ProgrammeInstance } from "./programmeInstance.js";
import { mergePartProblems } from "./programmeParts.js";
import {
  beyondWarnings,
  cridCollisions,
  type GivenCrid,
  type LayoutSpan,
  type ServiceCheck,
} from "./serviceCheck.js";

/** A check rolled on further than this many days is made in full. */
export const ROLL_MAX_DAYS = 3;

/**
 * The days a day-by-day check lays out: its new days and the two before them (the last
 * published day of the span before, and the day after it), so that every new published day's
 * document and day-majority, and every pair of programmes across the old end, is seen whole.
 */
export function rolledWindow(
  before: LayoutSpan,
  now: LayoutSpan,
): { from: PlainDate; to: PlainDate } {
  return { from: addDays(before.to, -1), to: now.to };
}

export type RolledCheck =
  | {
      check: ServiceCheck;
      /** The programmes of the days laid out (rolledWindow). */
      programmes: readonly ProgrammeInstance[];
      /** The new published dates: those whose documents these programmes make. */
      documentDates: PlainDate[];
      /** Which days were laid out, for SPI_STATIC_DEBUG=schedule. */
      laidOut: string;
    }
  | { unsure: string };

/**
 * The check of a service over `span`, made from the check `earlier` recorded for a span that
 * ended 1 to ROLL_MAX_DAYS days before (same inputs: the engine's plan says so) and a layout of
 * the new days only (rolledWindow), its episodes read only from the lists that hold them. It
 * equals a full check because each part it keeps depends only on its own day, given the rule
 * below; what spans days is made again from the kept parts:
 *
 * - per day (kept for the days still in the span, made for the new ones): the episodes' problems
 *   (attachEpisodes: one date's episodes against that date's airings) and the programme parts'
 *   (placeProgrammeParts over one date's programmes; merged in date order as one run gives);
 * - the CRIDs the YAML gives: the recorded ones of the days kept and the new days', checked for
 *   collisions again; a given CRID of this service's derived form (`…/<id>/<UTC minute>`), which
 *   is checked against all of its programmes, makes it unsure;
 * - the day majority per published date (its document reads the day before and after only);
 * - the episodes' load problems (their files only) and the dates beyond the span, laid out alone
 *   (the same dates less the new ones: a dated day leaving the span would be a new one, unsure);
 * - overlaps, shared shortIds and every error: any found in the new days makes it unsure (the
 *   full layout reports them in their order), the days kept had none (a check with errors is
 *   not recorded).
 *
 * The rule that makes a day's layout its own: every day laid out before and now has grid slots
 * and its last one starts that day (no programme then runs across a whole day or starts on
 * another day than its slot's, so neither end of a span reaches into another day's
 * programmes). Otherwise, as for anything else it cannot tell, it answers `unsure` and the
 * service is laid out in full. The two days before the new ones are laid out again, and must
 * find what was recorded for them.
 */
export function rollCheck(
  service: Service,
  earlier: ServiceCheck,
  {
    cridAuthority,
    span,
    dates,
    marginHours,
  }: { cridAuthority: string; span: LayoutSpan; dates: readonly PlainDate[]; marginHours: number },
): RolledCheck {
  const recorded = earlier.dayByDay;
  if (recorded === undefined) return { unsure: "its recorded check is not split by day" };
  const before = recorded.span;
  const why = spanMoveProblem(service, before, span);
  if (why) return { unsure: why };
  const { schedule } = service;
  const window = rolledWindow(before, span);
  const reading: InputProblem[] = [];
  const { episodes, listDates } = schedule.episodes.loadLists(reading, (list) => {
    const held = recorded.episodeLists[list];
    return held !== null && held !== undefined && held[0] <= window.to && held[1] >= window.from;
  });
  if (listDates.length !== recorded.episodeLists.length) {
    return { unsure: "its episode lists are not those recorded" };
  }
  const laidOut = expandSchedule(service, cridAuthority, window.from, window.to, episodes);
  const errors = [...reading, ...laidOut.problems].filter((p) => p.severity === "error");
  if (laidOut.overlaps.length > 0 || errors.length > 0) {
    return { unsure: "its new days have errors" };
  }
  const { zone, billedIn } = billing(service);
  for (const date of dateRange(window.from, before.to)) {
    const again = laidOut.days.get(date);
    const then = recorded.days[date];
    const givenAgain = givenOf(laidOut.programmes).filter(billedIn(date, date));
    const givenThen = earlier.given.filter(billedIn(date, date));
    if (!same(again ?? NOTHING, then ?? NOTHING) || !same(givenAgain, givenThen)) {
      return { unsure: `${date} laid out again does not find what was recorded` };
    }
  }

  // The days kept as recorded, then the new ones.
  const days: Record<PlainDate, DayParts> = {};
  for (const [date, parts] of Object.entries(recorded.days)) {
    if (date >= span.from && date <= before.to) days[date] = parts;
  }
  for (const [date, parts] of laidOut.days) if (date > before.to) days[date] = parts;
  const order = Object.keys(days).sort();
  const spanned = [
    ...order.flatMap((date) => days[date]?.attach ?? []),
    ...mergePartProblems(order.map((date) => days[date]?.parts ?? [])),
  ];
  const reported = new Set([...recorded.load, ...spanned].map(formatSourceRef));
  const beyond = recorded.beyond.filter(([date]) => date <= before.to || date > span.to);
  const given = [
    ...earlier.given.filter(billedIn(span.from, before.to)),
    ...givenOf(laidOut.programmes).filter(({ start }) => localDateOf(zone, start) > before.to),
  ];
  // Only a CRID of the derived form (programmeCrid: a UTC minute) can be a programme's.
  const prefix = `crid://${cridAuthority}/${service.id}/`;
  const derivedForm = ({ crid }: GivenCrid) =>
    crid.startsWith(prefix) && /^\d{12}$/.test(crid.slice(prefix.length));
  if (given.some(derivedForm)) return { unsure: "a CRID it gives has its own derived form" };
  const collisions = cridCollisions([{ service, given, programmes: () => [] }], cridAuthority);
  if (collisions.length > 0) return { unsure: "its CRIDs collide" };
  const majority: Record<PlainDate, InputProblem> = {};
  const documentDates = dates.filter((date) => date >= before.to);
  for (const date of dates) {
    const found =
      date < before.to
        ? recorded.majority[date]
        : dayMajorityOn(service, laidOut.programmes, date, marginHours);
    if (found) majority[date] = found;
  }
  const firstMajority = Object.values(majority)[0];
  const problems = [
    ...recorded.load,
    ...spanned,
    ...beyondWarnings(beyond, reported),
    ...(firstMajority ? [firstMajority] : []),
  ];
  return {
    check: {
      problems,
      given,
      dayByDay: { ...recorded, span, days, majority, beyond },
    },
    programmes: laidOut.programmes,
    documentDates,
    laidOut: `${window.from} to ${window.to}`,
  };
}

/**
 * Why the check cannot roll on from `before`: the span moved otherwise than 1 to ROLL_MAX_DAYS
 * on, a dated day left it, or a day's layout is not its own.
 */
function spanMoveProblem(
  service: Service,
  before: LayoutSpan,
  span: LayoutSpan,
): string | undefined {
  const moved = daysBetween(before.to, span.to);
  if (moved < 1 || moved > ROLL_MAX_DAYS || daysBetween(before.from, span.from) !== moved) {
    return `its days moved from ${before.from}..${before.to}, not 1 to ${ROLL_MAX_DAYS} on`;
  }
  for (const date of dateRange(before.from, addDays(span.from, -1))) {
    if (service.schedule.dates.has(date)) return `dated day ${date} left the span`;
  }
  // Every day laid out before and now: the old span and the new one.
  return spanDependence(service, { from: before.from, to: span.to });
}

const NOTHING: DayParts = { attach: [], parts: [] };

/** Recorded values come back from JSON: compared as JSON. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function givenOf(programmes: readonly ProgrammeInstance[]): GivenCrid[] {
  return programmes
    .filter((programme) => !programme.derivedCrid)
    .map(({ crid, start }) => ({ crid, start }));
}

function billing(service: Service) {
  const zone = service.timeZone;
  return {
    zone,
    billedIn:
      (from: PlainDate, to: PlainDate) =>
      ({ start }: GivenCrid) => {
        const date = localDateOf(zone, start);
        return date >= from && date <= to;
      },
  };
}

/**
 * Why a service's programmes near the ends of `span` may depend on where it ends, or undefined
 * when they cannot: a day there whose layout is not its own (notOwnDay). A slot before a day
 * without grid slots runs on to the next slot, which may lie beyond the span (it is then left
 * out), and the programme on air at the span's first midnight may start before it: the same
 * date's PI document can then differ by the span it was laid out in, so each night's documents
 * must be made again rather than reused (the engine makes the span part of their inputs).
 */
export function spanDependence(service: Service, span: LayoutSpan): string | undefined {
  for (const date of dateRange(addDays(span.from, -1), addDays(span.to, 1))) {
    const why = notOwnDay(service, date);
    if (why) return why;
  }
  return undefined;
}

/**
 * Why `date`'s layout may not be its own: it has no grid slot (the slot before runs on across
 * it), or its last grid slot or a special starts on another day (a clock change across
 * midnight).
 */
function notOwnDay(service: Service, date: PlainDate): string | undefined {
  const { schedule, timeZone: zone } = service;
  const dated = schedule.dates.get(date);
  const slots = dated?.slots ?? schedule.week[weekdayOf(date)];
  if (slots.length === 0) return `${date} has no grid slots`;
  const starts = [lastStart(slots)];
  for (const special of dated?.specials ?? []) starts.push(special.start);
  for (const start of starts) {
    if (localDateOf(zone, resolveWallTime(zone, date, start)) !== date) {
      return `a slot of ${date} starts on another day`;
    }
  }
  return undefined;
}

/** The latest start among slots; the days of a weekly grid share their arrays. */
const lastStarts = new WeakMap<readonly Slot[], number>();

function lastStart(slots: readonly Slot[]): number {
  let last = lastStarts.get(slots);
  if (last === undefined) {
    last = Math.max(...slots.map((slot) => slot.start));
    lastStarts.set(slots, last);
  }
  return last;
}
