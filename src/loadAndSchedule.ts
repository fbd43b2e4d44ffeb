import type { InputReaderOptions } from "./load/files/inputReader.js";
import { type LoadReport, loadBroadcaster } from "./load/loadBroadcaster.js";
import type { InputProblem } from "./load/text/inputProblem.js";
import {
  type ScheduledBroadcaster,
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
 * The first two stages, for `validate`, `serve` and `import`: load, then lay out each service
 * that loaded the way the build will (the window around `now`, and every dated entry beyond it).
 * Problems are values: each service stands or falls on its own, and the caller decides whether
 * to publish the rest. `build` runs the same two stages with its plan between them
 * (build/buildSite.ts) and reports through dataReport, so both report the same.
 */
export async function loadAndSchedule(
  dataDir: string,
  now: number,
  reading: InputReaderOptions = {},
): Promise<DataReport> {
  const loaded = await loadBroadcaster(dataDir, reading);
  return dataReport(
    loaded,
    loaded.broadcaster ? scheduleBroadcaster(loaded.broadcaster, now) : undefined,
  );
}

/** The report of both stages: what loading found, then what laying out the services found. */
export function dataReport(loaded: LoadReport, laidOut: ScheduleReport | undefined): DataReport {
  if (!laidOut) {
    return {
      scheduled: undefined,
      problems: inReadingOrder(loaded.problems),
      brokenServices: loaded.brokenServices,
      checks: new Map(),
    };
  }
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
