import type { EpisodeListDates, Service } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem } from "../load/text/inputProblem.js";
import type { PlainDate } from "../time/plainDate.js";
import type { DayParts } from "./expandSchedule.js";
import type { ProgrammeInstance } from "./programmeInstance.js";

/**
 * What checking one service found, in full (scheduleBroadcaster.ts) or day by day (rollCheck.ts),
 * and what both ways of checking make alike: the warnings beyond the span and the CRID checks.
 */

export interface LayoutSpan {
  from: PlainDate;
  to: PlainDate;
}

/** What checking one service (laying it out over the span) found, errors aside. */
export interface ServiceCheck {
  problems: InputProblem[];
  given: GivenCrid[];
  /** The same, split by day, for the next day's check to lay out only its new days. */
  dayByDay?: DayByDayCheck | undefined;
}

/**
 * A service's check split by day (recorded with it, ServiceCheck.dayByDay): what the next day's
 * check needs to lay out only its new days and take the rest as found (rollCheck).
 */
export interface DayByDayCheck {
  /** The days it was laid out for. */
  span: LayoutSpan;
  /** What reading its episodes found: their files only, whatever the days. */
  load: InputProblem[];
  /** Per date of the span with any: its episodes' and its programmes' parts' problems. */
  days: Record<PlainDate, DayParts>;
  /** Per published date whose PI document lists mostly other days' time: the warning. */
  majority: Record<PlainDate, InputProblem>;
  /** The dates beyond the span, each laid out alone, in order, with what they found. */
  beyond: [PlainDate, InputProblem[]][];
  /** Each episode list's first and last date (EpisodeSource.loadLists). */
  episodeLists: EpisodeListDates[];
}

/** A programme whose CRID the YAML gives (a special's or an episode's), as the CRID checks see it. */
export type GivenCrid = Pick<ProgrammeInstance, "crid" | "start">;

/** A service as the CRID checks see it: the CRIDs its YAML gives, and all its programmes. */
export interface CridSource {
  service: Service;
  given: readonly GivenCrid[];
  programmes(): readonly ProgrammeInstance[];
}

/**
 * What the dates beyond the span found, as warnings, each entry once: one already `reported`
 * (which this adds to) is not repeated. Made the same way for a full check and a day-by-day one.
 */
export function beyondWarnings(
  found: readonly (readonly [PlainDate, readonly InputProblem[]])[],
  reported: Set<string>,
): InputProblem[] {
  const warnings: InputProblem[] = [];
  for (const [date, problems] of found) {
    for (const problem of problems) {
      const key = formatSourceRef(problem);
      if (reported.has(key)) continue;
      reported.add(key);
      warnings.push({
        ...problem,
        severity: "warning",
        message: `${problem.message} (${date} is after the days published now; it becomes an error when it comes into them)`,
      });
    }
  }
  return warnings;
}

/**
 * CRIDs given in the YAML could repeat one another or a derived one; a client would merge them.
 * Derived CRIDs never repeat each other (service id and start are unique), so only given ones are
 * kept; a given CRID can equal a derived one only if it has the derived form, naming a service
 * whose programmes are then looked through.
 */
export function cridCollisions(services: CridSource[], cridAuthority: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const givenCrids = new Map<string, { service: Service; programme: GivenCrid }>();
  for (const { service, given } of services) {
    for (const programme of given) {
      const other = givenCrids.get(programme.crid);
      if (other) problems.push(cridProblem(service, programme, other));
      else givenCrids.set(programme.crid, { service, programme });
    }
  }
  const prefix = `crid://${cridAuthority}/`;
  const suspects = new Set<string>();
  for (const crid of givenCrids.keys()) {
    if (crid.startsWith(prefix)) suspects.add(crid.slice(prefix.length).split("/")[0] ?? "");
  }
  for (const { service, programmes } of services) {
    if (!suspects.has(service.id)) continue;
    for (const programme of programmes()) {
      const given = givenCrids.get(programme.crid);
      if (given && programme.derivedCrid) {
        problems.push(cridProblem(given.service, given.programme, { service, programme }));
      }
    }
  }
  return problems;
}

function cridProblem(
  service: Service,
  programme: GivenCrid,
  other: { service: Service; programme: GivenCrid },
): InputProblem {
  return {
    file: `schedules/${service.id}.yaml`,
    line: 1,
    column: 1,
    field: "crid",
    severity: "error",
    message: `CRID ${programme.crid} of ${airing(service, programme)} is also used by ${airing(other.service, other.programme)}`,
  };
}

function airing(service: Service, programme: GivenCrid): string {
  return `${service.id} at ${new Date(programme.start).toISOString()}`;
}
