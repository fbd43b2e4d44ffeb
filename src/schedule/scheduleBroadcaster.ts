import { debug } from "../debug/debugLog.js";
import type { Broadcaster, EpisodesByDate, Service } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem } from "../load/text/inputProblem.js";
import { PUBLISHED_DAYS_AROUND_TODAY } from "../site/siteContract.js";
import { addDays, dateRange, type PlainDate } from "../time/plainDate.js";
import { localDateOf } from "../time/wallClock.js";
import { dayMajorityOn } from "./dayMajority.js";
import { expandSchedule, type Overlap, overlapKey, overlapProblem } from "./expandSchedule.js";
import { groupShortIdCollisions } from "./groupShortIds.js";
import type { ProgrammeInstance } from "./programmeInstance.js";
import { rollCheck } from "./rollCheck.js";
import {
  beyondWarnings,
  type CridSource,
  cridCollisions,
  type DayByDayCheck,
  type LayoutSpan,
  type ServiceCheck,
} from "./serviceCheck.js";

export interface ScheduledService {
  service: Service;
  /**
   * The service's programmes, sorted by start, billed within the published days ± 1 (the
   * service's zone). Laid out again on every call: a build holds one service's programmes at a
   * time, so its memory does not grow with the number of services (holding them all from the
   * check to the render took 317 -> 639 MB at 1000 services).
   */
  programmes(): ProgrammeInstance[];
}

export interface ScheduledBroadcaster {
  broadcaster: Broadcaster;
  /** Today in the provider's time zone at the build's clock. */
  today: PlainDate;
  dates: PlainDate[];
  /** The days the services are laid out for: the published days and one either side. */
  span: LayoutSpan;
  services: ScheduledService[];
}

/** What the schedule stage found: the services it could lay out and every problem. */
export interface ScheduleReport {
  /** The services without errors, laid out; undefined when a problem spans services. */
  scheduled: ScheduledBroadcaster | undefined;
  problems: InputProblem[];
  /** Services left out for their errors. */
  brokenServices: string[];
  /** The check of each service without errors, for the next build to take as recorded. */
  checks: Map<Service, ServiceCheck>;
}

export interface ScheduleOptions {
  /**
   * Checks to take as recorded, by service id (the engine's plan decides which: same inputs,
   * same days): such a service is not laid out to be checked, its episodes not even read, and
   * it reports what its recorded check found.
   */
  recorded?: ReadonlyMap<string, ServiceCheck> | undefined;
  /**
   * Checks recorded for earlier days (same inputs), by service id: such a service is checked
   * day by day (rollCheck.ts), laying out only its new days, or in full when that is unsure.
   */
  rolled?: ReadonlyMap<string, ServiceCheck> | undefined;
}

/** A service checked without errors, as the schedule stage yields it. */
export interface CheckedService {
  service: Service;
  check: ServiceCheck;
  /**
   * The programmes its check laid out over the whole span (as ScheduledService.programmes()
   * lays them out again); undefined when its check was taken as recorded. Only until the next
   * service is checked: a build holds one service's programmes at a time.
   */
  programmes: readonly ProgrammeInstance[] | undefined;
  /**
   * The published dates whose PI documents these programmes make as the whole span's would:
   * all of them after a full layout, the new ones after a day-by-day check.
   */
  documentDates: readonly PlainDate[];
}

/** The days a build at `now` (UTC ms) publishes in `timeZone`, and the span it lays out. */
export function publishedDays(
  timeZone: string,
  now: number,
): { today: PlainDate; dates: PlainDate[]; span: LayoutSpan } {
  const today = localDateOf(timeZone, now);
  const dates = dateRange(
    addDays(today, -PUBLISHED_DAYS_AROUND_TODAY),
    addDays(today, PUBLISHED_DAYS_AROUND_TODAY),
  );
  // A day either side: a PI document also lists programmes of its neighbouring days.
  const from = addDays(dates[0] as PlainDate, -1);
  const to = addDays(dates[dates.length - 1] as PlainDate, 1);
  return { today, dates, span: { from, to } };
}

/**
 * The schedule stage for the whole broadcaster at the build's clock `now` (UTC ms): every
 * service checked, then the checks across services (consuming checkServices).
 */
export function scheduleBroadcaster(
  broadcaster: Broadcaster,
  now: number,
  options: ScheduleOptions = {},
): ScheduleReport {
  const steps = checkServices(broadcaster, now, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The schedule stage, service by service: each service is laid out once, for the published days
 * and on each of its dated entries beyond them (so an overlap is found whenever it is dated),
 * and stands or falls on its own; each one checked without errors is yielded with the
 * programmes its check laid out, so the engine can render a document or two of it from them at
 * once. Returns the report once the checks across services are done: a CRID that two services'
 * programmes share fails them all together.
 */
export function* checkServices(
  broadcaster: Broadcaster,
  now: number,
  { recorded, rolled }: ScheduleOptions = {},
): Generator<CheckedService, ScheduleReport> {
  const { today, dates, span } = publishedDays(broadcaster.provider.timeZone, now);
  const { from, to } = span;
  const { cridAuthority } = broadcaster.provider;
  const problems: InputProblem[] = [];
  const brokenServices: string[] = [];
  const services: ScheduledService[] = [];
  const cridSources: CridSource[] = [];
  const checks = new Map<Service, ServiceCheck>();
  /** A service checked without errors: it is scheduled, and its CRIDs are checked across. */
  const keep = (service: Service, check: ServiceCheck) => {
    const layOutAgain = layingOut(service, cridAuthority, from, to);
    services.push({ service, programmes: layOutAgain });
    cridSources.push({ service, given: check.given, programmes: layOutAgain });
    checks.set(service, check);
  };
  for (const service of broadcaster.services) {
    const asRecorded = recorded?.get(service.id);
    if (asRecorded) {
      debug("schedule", () => `${service.id}: checked as recorded (same inputs, same days)`);
      for (const problem of asRecorded.problems) problems.push(problem);
      keep(service, asRecorded);
      yield { service, check: asRecorded, programmes: undefined, documentDates: [] };
      continue;
    }
    const earlier = rolled?.get(service.id);
    const days = { cridAuthority, span, dates, marginHours: broadcaster.provider.piMarginHours };
    const roll = earlier && rollCheck(service, earlier, days);
    if (roll && "check" in roll) {
      const { check } = roll;
      debug("schedule", () => `${service.id}: checked day by day: laid out ${roll.laidOut}`);
      for (const problem of check.problems) problems.push(problem);
      keep(service, check);
      yield { service, check, programmes: roll.programmes, documentDates: roll.documentDates };
      continue;
    }
    if (roll) debug("schedule", () => `${service.id}: laid out in full: ${roll.unsure}`);
    const { check, programmes } = checkInFull(service, days);
    for (const problem of check.problems) problems.push(problem);
    if (check.problems.some((problem) => problem.severity === "error")) {
      brokenServices.push(service.id);
      continue;
    }
    keep(service, check);
    yield { service, check, programmes, documentDates: dates };
  }
  // What remains fails only together: CRIDs given in the YAML that collide across services, and
  // groups of services with unique shortIds whose shortIds would.
  const across = [
    ...cridCollisions(cridSources, cridAuthority),
    ...groupShortIdCollisions(
      services.map(({ service }) => service),
      cridAuthority,
    ),
  ];
  problems.push(...across);
  const scheduled = {
    broadcaster: { ...broadcaster, services: services.map(({ service }) => service) },
    today,
    dates,
    span,
    services,
  };
  return {
    scheduled: across.length > 0 ? undefined : scheduled,
    problems,
    brokenServices,
    checks,
  };
}

/** A service laid out over the whole span and checked: its own problems, in its check. */
function checkInFull(
  service: Service,
  { cridAuthority, span, dates, marginHours }: Parameters<typeof rollCheck>[2],
): { check: ServiceCheck; programmes: ProgrammeInstance[] } {
  const { from, to } = span;
  const laidOut = layOutService(service, cridAuthority, from, to);
  const { programmes, overlaps, datesBeyond } = laidOut;
  debug(
    "schedule",
    () =>
      `${service.id}: ${programmes.length} programmes laid out for ${from} to ${to}, ` +
      `${datesBeyond} dated entries beyond them checked for overlaps; episodes: ` +
      `${laidOut.episodes.within} dated within them, ${laidOut.episodes.later} later ` +
      `(checked, problems are warnings), ${laidOut.episodes.earlier} earlier (left alone)`,
  );
  const given = programmes
    .filter((programme) => !programme.derivedCrid)
    .map(({ crid, start }) => ({ crid, start }));
  const own = [
    ...overlaps.map(overlapProblem),
    ...laidOut.problems,
    ...cridCollisions([{ service, given, programmes: () => programmes }], cridAuthority),
  ];
  const majority: Record<PlainDate, InputProblem> = {};
  if (overlaps.length === 0) {
    for (const date of dates) {
      const found = dayMajorityOn(service, programmes, date, marginHours);
      if (found) majority[date] = found;
    }
  }
  const firstMajority = Object.values(majority)[0];
  if (firstMajority) own.push(firstMajority);
  const check = { problems: own, given, dayByDay: { ...laidOut.dayByDay, span, majority } };
  return { check, programmes };
}

/**
 * A function that lays the service out again. Made out here, not in the loop above: a closure
 * made there would share the loop's scope, and with it keep that service's programmes alive.
 */
function layingOut(
  service: Service,
  cridAuthority: string,
  from: PlainDate,
  to: PlainDate,
): () => ProgrammeInstance[] {
  return () => programmesWithin(service, cridAuthority, { from, to }, loadEpisodesAgain(service));
}

/**
 * A service's episodes loaded again for its render, neither checked nor located: the check
 * before it reported what is wrong with the same values.
 */
function loadEpisodesAgain(service: Service): EpisodesByDate {
  return service.schedule.episodes.load(undefined);
}

/** A scheduled service's programmes, laid out again from its model (what `programmes()` does). */
function programmesWithin(
  service: Service,
  cridAuthority: string,
  { from, to }: LayoutSpan,
  episodes: EpisodesByDate,
): ProgrammeInstance[] {
  return expandSchedule(service, cridAuthority, from, to, episodes).programmes;
}

/**
 * One service's programmes billed in [from, to] (none if they overlap), and its overlaps there
 * and on every dated entry outside that range; an overlap that recurs is reported once, at its
 * first date. Episodes dated after the range are matched on their own days too, and what is
 * wrong with them is a warning: it changes nothing published yet, and the day it comes into the
 * range it is an error. Episodes dated before it are past (files of past weeks stay around).
 */
function layOutService(
  service: Service,
  cridAuthority: string,
  from: PlainDate,
  to: PlainDate,
): {
  programmes: ProgrammeInstance[];
  overlaps: Overlap[];
  problems: InputProblem[];
  datesBeyond: number;
  episodes: { within: number; later: number; earlier: number };
  dayByDay: Omit<DayByDayCheck, "span" | "majority">;
} {
  const problems: InputProblem[] = [];
  const loaded = service.schedule.episodes.loadLists(problems, () => true);
  const { episodes } = loaded;
  const load = [...problems];
  const expanded = expandSchedule(service, cridAuthority, from, to, episodes);
  const { programmes, overlaps } = expanded;
  for (const problem of expanded.problems) problems.push(problem);
  const found = new Map(overlaps.map((overlap) => [overlapKey(overlap), overlap]));
  const reported = new Set(problems.map(formatSourceRef));
  const { dates } = service.schedule;
  const episodeCount = { within: 0, later: 0, earlier: 0 };
  for (const [date, onDate] of episodes) {
    const when = date < from ? "earlier" : date > to ? "later" : "within";
    episodeCount[when] += onDate.length;
  }
  const beyond = new Set([...dates.keys()].filter((date) => date < from || date > to));
  const datesBeyond = beyond.size;
  for (const date of episodes.keys()) if (date > to) beyond.add(date);
  const beyondFound: [PlainDate, InputProblem[]][] = [];
  for (const date of beyond) {
    const expansion = expandSchedule(service, cridAuthority, date, date, episodes);
    for (const overlap of expansion.overlaps) {
      const key = overlapKey(overlap);
      if (!found.has(key)) found.set(key, overlap);
    }
    if (expansion.problems.length > 0) beyondFound.push([date, expansion.problems]);
  }
  problems.push(...beyondWarnings(beyondFound, reported));
  return {
    programmes,
    overlaps: [...found.values()],
    problems,
    datesBeyond,
    episodes: episodeCount,
    dayByDay: {
      load,
      days: Object.fromEntries(expanded.days),
      beyond: beyondFound,
      episodeLists: loaded.listDates,
    },
  };
}
