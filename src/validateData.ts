import type { Service } from "./load/broadcaster.js";
import { formatProblem, InputError, type InputProblem } from "./load/inputProblem.js";
import { readBroadcaster } from "./load/loadBroadcaster.js";
import { expandSchedule } from "./schedule/expandSchedule.js";
import { type ScheduledBroadcaster, scheduleBroadcaster } from "./schedule/scheduleBroadcaster.js";
import { PUBLISHED_DAYS_AROUND_TODAY } from "./site/siteContract.js";
import { daysBetween } from "./time/plainDate.js";
import { localDateOf } from "./time/wallClock.js";

/** Everything `validate` reports and `build` needs: the publishable part and every problem. */
export interface DataReport {
  /** The provider and every service without errors, laid out for the build's window. */
  scheduled: ScheduledBroadcaster | undefined;
  /** Errors and warnings, file by file. */
  problems: InputProblem[];
  /** Services left out for their errors. */
  brokenServices: string[];
}

/**
 * Load, then lay the services out the way the build will (the window around `now`), and lay out
 * on its own every dated entry beyond that window, so an overlap is found whenever it is dated.
 * When something fails, each service is laid out alone to find which ones to leave out of
 * `scheduled`; the caller decides whether to publish the rest.
 */
export async function validateData(dataDir: string, now: number): Promise<DataReport> {
  const { broadcaster, problems, brokenServices } = await readBroadcaster(dataDir);
  if (!broadcaster) {
    return { scheduled: undefined, problems: inReadingOrder(problems), brokenServices };
  }
  const layOut = (services: readonly Service[]) =>
    scheduleBroadcaster({ ...broadcaster, services }, now);

  const today = localDateOf(broadcaster.provider.timeZone, now);
  const beyondWindow = new Map(
    broadcaster.services.map((service) => [
      service,
      [...service.schedule.dates.keys()]
        .filter((date) => Math.abs(daysBetween(today, date)) >= PUBLISHED_DAYS_AROUND_TODAY)
        .flatMap((date) =>
          scheduleProblems(() =>
            expandSchedule(service, broadcaster.provider.cridAuthority, date, date),
          ),
        ),
    ]),
  );

  let scheduled: ScheduledBroadcaster | undefined;
  const together = scheduleProblems(() => {
    scheduled = layOut(broadcaster.services);
  });
  if (together.length > 0 || [...beyondWindow.values()].some((found) => found.length > 0)) {
    const valid: Service[] = [];
    for (const service of broadcaster.services) {
      const found = withoutRepeats([
        ...(together.length > 0 ? scheduleProblems(() => layOut([service])) : []),
        ...(beyondWindow.get(service) ?? []),
      ]);
      problems.push(...found);
      if (found.length > 0) brokenServices.push(service.id);
      else valid.push(service);
    }
    scheduled = undefined;
    // What remains fails only together: CRIDs given in the YAML that collide across services.
    problems.push(
      ...scheduleProblems(() => {
        scheduled = layOut(valid);
      }),
    );
  }
  return { scheduled, problems: inReadingOrder(problems), brokenServices };
}

/** File by file in the order first reported, and top to bottom within each file. */
function inReadingOrder(problems: InputProblem[]): InputProblem[] {
  const fileOrder = new Map<string, number>();
  for (const { file } of problems) if (!fileOrder.has(file)) fileOrder.set(file, fileOrder.size);
  return [...problems].sort(
    (a, b) =>
      (fileOrder.get(a.file) ?? 0) - (fileOrder.get(b.file) ?? 0) ||
      a.line - b.line ||
      a.column - b.column,
  );
}

function scheduleProblems(run: () => unknown): InputProblem[] {
  try {
    run();
    return [];
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return error.problems;
  }
}

/** The same grid overlap turns up on every day it recurs: report it once, with its first day. */
function withoutRepeats(problems: InputProblem[]): InputProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = formatProblem(problem).replace(/ \(on \d{4}-\d{2}-\d{2}\)$/, "");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
