import { createHash } from "node:crypto";
import { join } from "node:path";
import { localDateOf } from "../time/wallClock.js";
import { type BuildState, commitBuildState, STATE_PATH } from "./buildState.js";
import { recordedState, type SeenFile, seeFile, seeUnchanged } from "./fileState.js";

/**
 * What a complete, error-free build leaves behind (the state's `stamp` part, buildState.ts) so
 * that the next one can tell it has nothing to do: the fingerprint of its inputs, the local day
 * it was built for, and each file's state and digest (fileState.ts). `report` is the build's
 * summary, to be repeated (warnings included). It counts only when no journal was left since
 * (a build killed or failed after it may have created files it does not list).
 */
export interface BuildStamp<Report> {
  inputs: string;
  /** The provider's time zone and the local day the build was for, in it. */
  timeZone: string;
  today: string;
  report: Report;
}

interface StampFile<Report> extends Omit<BuildStamp<Report>, "inputs"> {
  /** stampCheck(): the inputs, the day and the report, so that none can be moved on alone. */
  check: string;
  files: Record<string, [state: string, digest: string]>;
}

/**
 * What a stamp is for: the build's inputs on its local day, with the report it repeats. A stamp
 * is checked against the fingerprint and the day worked out again from the clock, never taken
 * at its word: a stamp whose day was moved on (by hand, or a bad restore) no longer matches.
 */
function stampCheck(
  inputs: string,
  timeZone: unknown,
  today: string | undefined,
  report: unknown,
): string {
  return createHash("sha256")
    .update(JSON.stringify([inputs, timeZone, today, report]))
    .digest("hex");
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
  const files: StampFile<Report>["files"] = {};
  const at = Date.now();
  for (const path of [...paths].sort()) {
    const file = known.get(path) ?? seeFile(join(outDir, path));
    files[path] = [file ? recordedState(file, at) : "", file?.digest ?? ""];
  }
  const { inputs, timeZone, today, report } = stamp;
  const check = stampCheck(inputs, timeZone, today, report);
  const section: StampFile<Report> = { check, timeZone, today, report, files };
  state.stamp = { ...section };
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
 * `rebuild` hears why.
 */
export function readUpToDateSite<Report>(
  state: BuildState,
  inputs: string,
  now: number,
  rebuild: (reason: string) => void = () => {},
): UpToDateSite<Report> | undefined {
  const { outDir } = state;
  if (state.unfinished) {
    rebuild("a build was killed or failed since the last complete one (its journal is there)");
    return undefined;
  }
  if (state.notes.length > 0) {
    // The damaged parts are rewritten by a build, as the notes say.
    rebuild(`a part of ${STATE_PATH} was damaged: ${state.notes.join("; ")}`);
    return undefined;
  }
  if (state.stamp === undefined) {
    // A first build, the last one had errors, or a damaged stamp (said in notes).
    rebuild(`${STATE_PATH} holds no stamp`);
    return undefined;
  }
  const stamp = state.stamp as Partial<StampFile<Report>> as StampFile<Report>;
  const today = dayOf(stamp.timeZone, now);
  if (today !== stamp.today) {
    rebuild(`another local day: the last build was for ${stamp.today}, this one is for ${today}`);
    return undefined;
  }
  if (stamp.check !== stampCheck(inputs, stamp.timeZone, today, stamp.report)) {
    rebuild(
      `the program, the data folder or the keys changed (fingerprint ${inputs.slice(0, 12)}), ` +
        "or the stamp was altered",
    );
    return undefined;
  }
  const { files } = stamp;
  if (typeof files !== "object" || files === null || Object.keys(files).length === 0) {
    rebuild(`the stamp in ${STATE_PATH} lists no files`);
    return undefined;
  }
  const paths = Object.keys(files);
  let learned = false;
  for (const path of paths) {
    const entry = files[path];
    const [state, digest] = Array.isArray(entry) ? entry.map(String) : [];
    const seen = seeUnchanged(join(outDir, path), { state: state ?? "", digest: digest ?? "" });
    if (!seen) {
      rebuild(`${path} is not as the last build left it (changed, gone or replaced)`);
      return undefined;
    }
    const trusted = recordedState(seen, Date.now());
    if (trusted !== state) {
      files[path] = [trusted, seen.digest];
      learned = true;
    }
  }
  return {
    report: stamp.report,
    files: paths,
    refresh: learned ? () => commitBuildState(state) : undefined,
  };
}

function dayOf(timeZone: unknown, now: number): string | undefined {
  try {
    return typeof timeZone === "string" ? localDateOf(timeZone, now) : undefined;
  } catch {
    return undefined;
  }
}
