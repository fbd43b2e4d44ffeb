import { join } from "node:path";
import { localDateOf } from "../time/wallClock.js";
import { type BuildSources, fingerprintOf } from "./buildFingerprint.js";
import { afterLooking, planUpToDate, stampCheck } from "./buildPlan.js";
import { type BuildState, commitBuildState } from "./buildState.js";
import { recordedState, type SeenFile, seeFile, seeUnchanged } from "./fileState.js";
import { describeChanges, inputChanges } from "./inputChanges.js";
import { restateRecordedFiles } from "./inputsRecord.js";
import type { StoredStamp } from "./stateParts.js";

/**
 * What a complete, error-free build leaves behind (the state's `stamp` part, buildState.ts) so
 * that the next one can tell it has nothing to do: its sources (buildFingerprint.ts, whose
 * fingerprint it is made from), the local day it was built for, and each file's state and digest
 * (fileState.ts). The sources let the next build say which input changed (recordedSources). `report` is the build's
 * summary, to be repeated (warnings included). It counts only when no journal was left since
 * (a build killed or failed after it may have created files it does not list).
 */
export interface BuildStamp<Report> {
  sources: BuildSources;
  /** The provider's time zone and the local day the build was for, in it. */
  timeZone: string;
  today: string;
  report: Report;
}

/**
 * Set in the state written last, when every file of the build is in place and the stale ones
 * are pruned. `known`: files the build already knows (from the document record), so those are
 * not read again.
 */
export function recordBuildStamp<Report>(
  state: BuildState,
  stamp: BuildStamp<Report>,
  paths: Iterable<string>,
  known: ReadonlyMap<string, SeenFile> = new Map(),
): void {
  const { outDir } = state;
  const files: StoredStamp["files"] = {};
  const at = Date.now();
  for (const path of [...paths].sort()) {
    const file = known.get(path) ?? seeFile(join(outDir, path));
    files[path] = [file ? recordedState(file, at) : "", file?.digest ?? ""];
  }
  const { sources, timeZone, today, report } = stamp;
  const check = stampCheck(fingerprintOf(sources), timeZone, today, report);
  state.stamp = { check, timeZone, today, report, files, sources };
}

export interface UpToDateSite<Report> {
  report: Report;
  /** The site paths the build published. */
  files: string[];
  /**
   * Files found the same by their bytes (new inodes after a restore, or not settled when
   * stamped) have a state to trust now: writing it spares the next check their hashing.
   */
  refresh: (() => void) | undefined;
}

/**
 * The earlier build's report when it was made from the same inputs for the same local day and
 * every one of its files is still there as it left it; otherwise undefined (build again), and
 * `rebuild` hears why. The decision is the planner's (buildPlan.ts planUpToDate, afterLooking);
 * this gathers its values: the day from the clock, and each stamped file as it is now.
 */
export function readUpToDateSite<Report>(
  state: BuildState,
  sources: BuildSources,
  now: number,
  rebuild: (reason: string) => void = () => {},
): UpToDateSite<Report> | undefined {
  const { stamp } = state;
  const planned = planUpToDate<Report>({
    unfinished: state.unfinished,
    damaged: state.notes,
    stamp,
    inputs: fingerprintOf(sources),
    changed: describeChanges(inputChanges(recordedSources(state), sources)),
    today: dayOf(stamp?.timeZone, now),
  });
  if (planned.upToDate === false) {
    rebuild(planned.why);
    return undefined;
  }
  const observed = new Map<string, SeenFile | undefined>();
  for (const [path, recorded] of planned.files) {
    const seen = seeUnchanged(join(state.outDir, path), recorded);
    observed.set(path, seen);
    // The first file changed settles it: the others need not be hashed.
    if (seen === undefined) break;
  }
  const decided = afterLooking(planned, observed, Date.now());
  if (decided.upToDate === false) {
    rebuild(decided.why);
    return undefined;
  }
  const { restated } = decided;
  return {
    report: decided.report,
    files: decided.files,
    refresh: restated.size > 0 ? () => restateFiles(state, restated) : undefined,
  };
}

/**
 * Records the files found the same by their bytes with their state now, in the stamp and in the
 * documents record (inputsRecord.ts), and writes the state: neither the next up-to-date check
 * nor the next build's plan hashes them again. Written only when there is such a file.
 */
function restateFiles(state: BuildState, restated: ReadonlyMap<string, SeenFile>): void {
  const at = Date.now();
  const files = state.stamp?.files ?? {};
  for (const [path, seen] of restated) files[path] = [recordedState(seen, at), seen.digest];
  restateRecordedFiles(state, restated, at);
  commitBuildState(state);
}

function dayOf(timeZone: string | undefined, now: number): string | undefined {
  try {
    return timeZone === undefined ? undefined : localDateOf(timeZone, now);
  } catch {
    return undefined;
  }
}

/**
 * The sources the stamp's build was made from, when the stamp vouches for them (its check is
 * made from their fingerprint): an edited or damaged record is never read as a change.
 */
export function recordedSources(state: BuildState): BuildSources | undefined {
  const stamp = state.stamp as StoredStamp | undefined;
  const sources = stamp?.sources as BuildSources | undefined;
  const isRecord = (value: unknown) =>
    typeof value === "object" &&
    value !== null &&
    Object.values(value).every((part) => typeof part === "string");
  if (
    !isRecord(sources?.program) ||
    !isRecord(sources?.data) ||
    typeof sources?.dataDir !== "string" ||
    typeof sources.keys !== "string"
  ) {
    return undefined;
  }
  const check = stampCheck(fingerprintOf(sources), stamp?.timeZone, stamp?.today, stamp?.report);
  return check === stamp?.check ? sources : undefined;
}
