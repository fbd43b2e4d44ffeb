import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileState } from "./fileState.js";
import { STAMP_PATH } from "./stateFolder.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

/**
 * What a complete, error-free build leaves behind so that the next one can tell it has nothing
 * to do: the fingerprint of its inputs, the local day it was built for, and each file's size and
 * modification time. `report` is the build's summary, to be repeated (warnings included).
 */
export interface BuildStamp<Report> {
  inputs: string;
  /** The local day of the build, as UTC ms: [validFrom, validUntil). */
  validFrom: number;
  validUntil: number;
  report: Report;
}

interface StampFile<Report> extends BuildStamp<Report> {
  files: Record<string, string>;
}

/** A build that might change files first removes the stamp: a killed build leaves none. */
export function forgetBuildStamp(outDir: string): void {
  rmSync(join(outDir, STAMP_PATH), { force: true });
}

/**
 * Written last, after the manifest, when every file of the build is in place. `known`: file
 * states the build already has (from the document record), so those files are not stat'ed again.
 */
export function recordBuildStamp<Report>(
  outDir: string,
  stamp: BuildStamp<Report>,
  paths: Iterable<string>,
  known: ReadonlyMap<string, string> = new Map(),
): void {
  const files: Record<string, string> = {};
  for (const path of [...paths].sort()) {
    files[path] = known.get(path) ?? fileState(join(outDir, path)) ?? "";
  }
  const record: StampFile<Report> = { ...stamp, files };
  writeFileAtomically(join(outDir, STAMP_PATH), `${JSON.stringify(record)}\n`);
}

export interface UpToDateSite<Report> {
  report: Report;
  /** The site paths the build published. */
  files: string[];
}

/**
 * The earlier build's report when it was made from the same inputs for the same local day and
 * every one of its files is still there as it left it; otherwise undefined (build again), and
 * `rebuild` hears why.
 */
export function readUpToDateSite<Report>(
  outDir: string,
  inputs: string,
  now: number,
  rebuild: (reason: string) => void = () => {},
): UpToDateSite<Report> | undefined {
  let stamp: StampFile<Report>;
  try {
    stamp = JSON.parse(readFileSync(join(outDir, STAMP_PATH), "utf8")) as StampFile<Report>;
  } catch (error) {
    // No stamp (first build, or the last one failed or was killed), or a damaged one.
    rebuild(`no usable ${STAMP_PATH} (${(error as Error).message.split("\n")[0]})`);
    return undefined;
  }
  if (stamp.inputs !== inputs) {
    rebuild(
      `the program, the data folder or the keys changed (fingerprint ${inputs.slice(0, 12)}, ` +
        `last build ${String(stamp.inputs).slice(0, 12)})`,
    );
    return undefined;
  }
  if (!(stamp.validFrom <= now && now < stamp.validUntil)) {
    rebuild(
      `another local day: the last build was for ${new Date(stamp.validFrom).toISOString()} to ${new Date(stamp.validUntil).toISOString()}`,
    );
    return undefined;
  }
  const paths = Object.keys(stamp.files ?? {});
  for (const path of paths) {
    const state = fileState(join(outDir, path));
    if (state !== stamp.files[path]) {
      rebuild(
        `${path} is not as the last build left it (size mtime inode ${state ?? "missing"}, was ${stamp.files[path]})`,
      );
      return undefined;
    }
  }
  return { report: stamp.report, files: paths };
}
