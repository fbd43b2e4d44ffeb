import type { InputProblem } from "./load/inputProblem.js";
import type { InputReaderOptions } from "./load/inputReader.js";
import { loadBroadcaster } from "./load/loadBroadcaster.js";
import {
  type ScheduledBroadcaster,
  type ScheduleOptions,
  type ScheduleReport,
  scheduleBroadcaster,
} from "./schedule/scheduleBroadcaster.js";

/** Everything `validate` reports and `build` needs: the publishable part and every problem. */
export interface DataReport {
  /** The provider and every service without errors, laid out for the build's window. */
  scheduled: ScheduledBroadcaster | undefined;
  /** Errors and warnings, file by file. */
  problems: InputProblem[];
  /** Services left out for their errors. */
  brokenServices: string[];
  /** Each laid-out service's check, for the next build. */
  checks: ScheduleReport["checks"];
}

/**
 * The first two stages, for `build` and `validate` alike: load, then lay out each service that
 * loaded the way the build will (the window around `now`,
 * and every dated entry beyond it). Problems are values: each service stands or falls on its
 * own, and the caller decides whether to publish the rest.
 */
export async function loadAndSchedule(
  dataDir: string,
  now: number,
  reading: InputReaderOptions = {},
  scheduling: ScheduleOptions = {},
): Promise<DataReport> {
  const loaded = await loadBroadcaster(dataDir, reading);
  if (!loaded.broadcaster) {
    return {
      scheduled: undefined,
      problems: inReadingOrder(loaded.problems),
      brokenServices: loaded.brokenServices,
      checks: new Map(),
    };
  }
  const laidOut = scheduleBroadcaster(loaded.broadcaster, now, scheduling);
  return {
    scheduled: laidOut.scheduled,
    problems: inReadingOrder([...loaded.problems, ...laidOut.problems]),
    brokenServices: [...loaded.brokenServices, ...laidOut.brokenServices],
    checks: laidOut.checks,
  };
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
