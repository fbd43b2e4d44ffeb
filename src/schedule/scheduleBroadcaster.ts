import type { Broadcaster, Service } from "../load/broadcaster.js";
import { InputError, type InputProblem } from "../load/inputProblem.js";
import { PUBLISHED_DAYS_AROUND_TODAY } from "../site/siteContract.js";
import { addDays, dateRange, type PlainDate } from "../time/plainDate.js";
import { localDateOf } from "../time/wallClock.js";
import { expandSchedule } from "./expandSchedule.js";
import type { ProgrammeInstance } from "./programmeInstance.js";

export interface ScheduledService {
  service: Service;
  /**
   * The service's programmes, sorted by start, billed within the published days ± 1 (service
   * zone). Expanded afresh on every call: a build holds one service's programmes at a time, so
   * its memory does not grow with the number of services.
   */
  programmes(): ProgrammeInstance[];
}

export interface ScheduledBroadcaster {
  broadcaster: Broadcaster;
  /** Today in the provider's time zone at the build's clock. */
  today: PlainDate;
  dates: PlainDate[];
  services: ScheduledService[];
}

/** The schedule stage for the whole broadcaster at the build's clock `now` (UTC ms). */
export function scheduleBroadcaster(broadcaster: Broadcaster, now: number): ScheduledBroadcaster {
  const today = localDateOf(broadcaster.provider.timeZone, now);
  const dates = dateRange(
    addDays(today, -PUBLISHED_DAYS_AROUND_TODAY),
    addDays(today, PUBLISHED_DAYS_AROUND_TODAY),
  );
  const { cridAuthority } = broadcaster.provider;
  // A day either side: a PI document also lists programmes of its neighbouring days.
  const from = addDays(dates[0] as PlainDate, -1);
  const to = addDays(dates[dates.length - 1] as PlainDate, 1);
  const problems: InputProblem[] = [];
  const services: ScheduledService[] = [];
  const givenCrids = new Map<string, { service: Service; programme: ProgrammeInstance }>();
  for (const service of broadcaster.services) {
    const programmes = () => expandSchedule(service, cridAuthority, from, to);
    try {
      for (const programme of programmes()) {
        if (programme.derivedCrid) continue;
        const other = givenCrids.get(programme.crid);
        if (other) problems.push(cridProblem(service, programme, other));
        else givenCrids.set(programme.crid, { service, programme });
      }
      services.push({ service, programmes });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  problems.push(...givenLikeDerived(services, cridAuthority, givenCrids));
  if (problems.length > 0) throw new InputError(problems);
  return { broadcaster, today, dates, services };
}

/**
 * CRIDs given in the YAML could repeat one another or a derived one; a client would merge them.
 * Derived CRIDs never repeat each other (service id and start are unique), so only given ones are
 * kept; a given CRID can equal a derived one only if it has the derived form, naming a service
 * whose programmes are then laid out once more to look.
 */
function givenLikeDerived(
  services: ScheduledService[],
  cridAuthority: string,
  givenCrids: Map<string, { service: Service; programme: ProgrammeInstance }>,
): InputProblem[] {
  const prefix = `crid://${cridAuthority}/`;
  const suspects = new Set<string>();
  for (const crid of givenCrids.keys()) {
    if (crid.startsWith(prefix)) suspects.add(crid.slice(prefix.length).split("/")[0] ?? "");
  }
  const problems: InputProblem[] = [];
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
  programme: ProgrammeInstance,
  other: { service: Service; programme: ProgrammeInstance },
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

function airing(service: Service, programme: ProgrammeInstance): string {
  return `${service.id} at ${new Date(programme.start).toISOString()}`;
}
