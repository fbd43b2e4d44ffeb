import type { Broadcaster, Service } from "../load/broadcaster.js";
import { InputError, type InputProblem } from "../load/inputProblem.js";
import { addDays, dateRange, type PlainDate } from "../time/plainDate.js";
import { localDateOf } from "../time/wallClock.js";
import { expandSchedule } from "./expandSchedule.js";
import type { ProgrammeInstance } from "./programmeInstance.js";

/** The API serves today±7; the build writes one day more on each side so that a nightly build
 * still covers the window until the next run. The edge rules enforce the exact window. */
export const PUBLISHED_DAYS_AROUND_TODAY = 8;

export interface ScheduledService {
  service: Service;
  /** Sorted by start; billed dates span the published days (service zone). */
  programmes: ProgrammeInstance[];
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
  const from = dates[0] as PlainDate;
  const to = dates[dates.length - 1] as PlainDate;
  const problems: InputProblem[] = [];
  const services: ScheduledService[] = [];
  for (const service of broadcaster.services) {
    try {
      // A day either side: a PI document also lists programmes of its neighbouring days.
      const programmes = expandOnce(
        service,
        broadcaster.provider.cridAuthority,
        addDays(from, -1),
        addDays(to, 1),
      );
      services.push({ service, programmes });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  checkUniqueCrids(services);
  return { broadcaster, today, dates, services };
}

/**
 * Validation lays each service out alone and then all of them together: the second time reuses
 * the first. Keyed by the service object, so a reloaded service is expanded afresh.
 */
const expansions = new WeakMap<Service, { window: string; programmes: ProgrammeInstance[] }>();

function expandOnce(
  service: Service,
  cridAuthority: string,
  from: PlainDate,
  to: PlainDate,
): ProgrammeInstance[] {
  const window = `${cridAuthority} ${from} ${to}`;
  const known = expansions.get(service);
  if (known?.window === window) return known.programmes;
  const programmes = expandSchedule(service, cridAuthority, from, to);
  expansions.set(service, { window, programmes });
  return programmes;
}

/** CRIDs given in the YAML could repeat one another or a derived one; a client would merge them. */
function checkUniqueCrids(services: ScheduledService[]) {
  const seen = new Map<string, { service: Service; programme: ProgrammeInstance }>();
  const problems: InputProblem[] = [];
  for (const { service, programmes } of services) {
    for (const programme of programmes) {
      const other = seen.get(programme.crid);
      if (other) {
        problems.push({
          file: `schedules/${service.id}.yaml`,
          line: 1,
          column: 1,
          field: "crid",
          severity: "error",
          message: `CRID ${programme.crid} of ${airing(service, programme)} is also used by ${airing(other.service, other.programme)}`,
        });
      } else {
        seen.set(programme.crid, { service, programme });
      }
    }
  }
  if (problems.length > 0) throw new InputError(problems);
}

/** Formatted only when reported: a build checks a million CRIDs at aggregator scale. */
function airing(service: Service, programme: ProgrammeInstance): string {
  return `${service.id} at ${new Date(programme.start).toISOString()}`;
}
