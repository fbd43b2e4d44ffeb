import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import { writeFileAtomically } from "../publish/writeFileAtomically.js";
import { type DocumentRecord, parseVersionRecords } from "./documentVersions.js";
import { leftOldStateFiles, readOldState } from "./migrateOldState.js";
import { isSitePath, parseOwnedPaths } from "./ownershipManifest.js";
import {
  cacheSection,
  DamagedStateError,
  readStateFile,
  type ShortcutNotes,
  STATE_DIR,
} from "./stateFolder.js";

/**
 * What the build remembers, in one file, `out/_spi-static/state.json`, written atomically when a
 * build completes, and one journal, `out/_spi-static/state.journal`, while a build is
 * unfinished. Read once at the start of a build (under the lock, which buildSite holds for the
 * whole build); written by commitBuildState only (publishSite: once before pruning, once after).
 *
 * Parts and their failure policy:
 * - `owned` (ownershipManifest.ts) and `versions` (documentVersions.ts) decide what may be
 *   deleted and which versions were handed out: damaged, they stop the build
 *   (DamagedStateError: the file, what is wrong, what to do; nothing written). So does a
 *   state.json that cannot be read or parsed at all, and a damaged journal.
 * - `documents` (inputsRecord.ts), `checks` (checkRecord.ts), `digests` (digestRecord.ts),
 *   `stamp` (buildStamp.ts) only save work: damaged, they are ignored, said in `notes`, and
 *   written anew. Each owner checks its own entries. So is `services` (keptServices.ts: what
 *   each service was published as), which only `--keep-going` reads; without it a broken
 *   service is looked for under the provider's host and its id.
 *
 * The journal has a line per path a build is about to create ("owns <path>") and per version it
 * is about to publish ("version <n> <path>"), appended before each batch's files are written.
 * Its last line without a newline is an append a kill cut short: the files never appeared.
 */
export const STATE_PATH = `${STATE_DIR}/state.json`;
export const STATE_JOURNAL_PATH = `${STATE_DIR}/state.journal`;
/** state.json's format; a file of another one is refused rather than misread. */
export const STATE_FORMAT = 1;

/** A part that only saves work, as stored: its owner reads and writes its entries. */
export type CacheSection = Record<string, unknown>;

export interface BuildState {
  readonly outDir: string;
  /** The paths the build owns: the state's, with what unfinished builds journaled. */
  owned: Set<string>;
  /** The version records (documentVersions.ts: this build's are added as it decides them). */
  versions: Map<string, DocumentRecord>;
  /** The highest version unfinished builds journaled per path. */
  journaledVersions: Map<string, number>;
  /** A journal was found: a build was killed or failed since the state was written. */
  unfinished: boolean;
  documents: CacheSection;
  checks: CacheSection;
  digests: CacheSection;
  services: CacheSection;
  /** buildStamp.ts; none after a build with errors, and until the stale files are pruned. */
  stamp: CacheSection | undefined;
  /** The damaged parts that were ignored (BuildSummary.notes). */
  readonly notes: ShortcutNotes;
  /** Records of the format before state.json (migrateOldState.ts): removed once it is written. */
  oldFiles: string[];
}

/** The parts of a state, checked (from state.json, or the records before it). */
export type StoredState = Pick<
  BuildState,
  "owned" | "versions" | "documents" | "checks" | "digests" | "services" | "stamp"
>;

const STATE_REMEDY =
  "Delete it to start over: the files earlier builds wrote then count as foreign and are left " +
  "alone, and versions go on from those of the published files.";
const JOURNAL_REMEDY =
  "Delete it to go on: the files a killed build was creating then count as foreign, and a " +
  "version it gave to a file it was writing could be given again.";

/**
 * The state the last complete build left, with what unfinished builds journaled since. Without
 * state.json, the records of the format before it are read once (migrateOldState.ts); without
 * either, the state of a first build.
 */
export function readBuildState(outDir: string, notes: ShortcutNotes = []): BuildState {
  const text = readStateFile(outDir, STATE_PATH, STATE_REMEDY);
  const old = text === undefined ? readOldState(outDir, notes) : undefined;
  if (old) debug("publish", () => `state taken from the records before state.json: ${old.files}`);
  const stored = text === undefined ? old?.state : parseState(outDir, text, notes);
  const state: BuildState = {
    outDir,
    owned: new Set(),
    versions: new Map(),
    documents: {},
    checks: {},
    digests: {},
    services: {},
    stamp: undefined,
    ...stored,
    journaledVersions: old?.journaledVersions ?? new Map(),
    unfinished: old?.unfinished ?? false,
    notes,
    // With state.json: the old records a build killed between writing it and removing them left.
    oldFiles: text === undefined ? (old?.files ?? []) : leftOldStateFiles(outDir),
  };
  readJournal(state);
  return state;
}

function parseState(outDir: string, text: string, notes: ShortcutNotes): StoredState {
  const path = join(outDir, STATE_PATH);
  const damaged = (problem: string) => new DamagedStateError(path, problem, STATE_REMEDY);
  let file: Record<string, unknown>;
  try {
    file = JSON.parse(text);
  } catch {
    throw damaged("it is not valid JSON");
  }
  if (typeof file !== "object" || file === null || Array.isArray(file)) {
    throw damaged("it is not a JSON object");
  }
  if (file.formatVersion !== STATE_FORMAT) {
    throw damaged(
      typeof file.formatVersion === "number"
        ? `its formatVersion is ${file.formatVersion}, which this spi-static does not know (a newer one wrote it?)`
        : "it has no formatVersion",
    );
  }
  const part = (name: string) => (problem: string) => damaged(`"${name}": ${problem}`);
  const cache = (name: string) => cacheSection(file[name], `${path} ("${name}")`, notes);
  return {
    owned: parseOwnedPaths(file.owned, part("owned")),
    versions: parseVersionRecords(file.versions, part("versions")),
    documents: cache("documents"),
    checks: cache("checks"),
    digests: cache("digests"),
    // Absent in a state.json written before it: no note, as for a first build.
    services: file.services === undefined ? {} : cache("services"),
    stamp: file.stamp === null ? undefined : cache("stamp"),
  };
}

const OWNS = "owns ";
const VERSION = /^version (\d+) (.*)$/s;

/** Adds what unfinished builds journaled; a damaged journal stops the build. */
function readJournal(state: BuildState): void {
  const text = readStateFile(state.outDir, STATE_JOURNAL_PATH, JOURNAL_REMEDY);
  if (text === undefined) return;
  state.unfinished = true;
  const lines = text.split("\n");
  lines.pop();
  for (const [i, line] of lines.entries()) {
    const version = VERSION.exec(line);
    if (line.startsWith(OWNS) && isSitePath(line.slice(OWNS.length))) {
      state.owned.add(line.slice(OWNS.length));
    } else if (version && isJournaledVersion(Number(version[1]), version[2] as string)) {
      const [number, path] = [Number(version[1]), version[2] as string];
      state.journaledVersions.set(path, Math.max(number, state.journaledVersions.get(path) ?? 0));
    } else {
      throw new DamagedStateError(
        join(state.outDir, STATE_JOURNAL_PATH),
        `line ${i + 1} is not "owns <path>" or "version <number> <path>"`,
        JOURNAL_REMEDY,
      );
    }
  }
}

function isJournaledVersion(version: number, path: string): boolean {
  return Number.isSafeInteger(version) && version >= 1 && isSitePath(path);
}

/**
 * Before a batch's files are written: the paths it creates and the versions it publishes, in
 * one append, so that after a kill at any moment the next build owns every file and knows every
 * version handed out.
 */
export function journalBatch(
  state: BuildState,
  created: string[],
  versions: [version: number, path: string][],
): void {
  const lines = [
    ...created.map((path) => `${OWNS}${path}\n`),
    ...versions.map(([version, path]) => `version ${version} ${path}\n`),
  ];
  if (lines.length === 0) return;
  appendFileSync(join(state.outDir, STATE_JOURNAL_PATH), lines.join(""));
  for (const path of created) state.owned.add(path);
}

/**
 * Writes state.json (atomically) from `state`, owning `owned` and recording `versions`; then
 * the journal and the records of the format before it are no longer needed.
 */
export function commitBuildState(
  state: BuildState,
  {
    owned = state.owned,
    versions = state.versions,
  }: { owned?: Iterable<string>; versions?: ReadonlyMap<string, DocumentRecord> } = {},
): void {
  const paths = [...owned].sort();
  const parts: [string, unknown][] = [
    ["owned", paths],
    ["versions", Object.fromEntries(versions)],
    ["documents", state.documents],
    ["checks", state.checks],
    ["digests", state.digests],
    ["services", state.services],
    ["stamp", state.stamp ?? null],
  ];
  // A part per line: a reader (or diff) sees at a glance which part changed.
  const text = `{"formatVersion":${STATE_FORMAT},"generator":"spi-static",\n${parts
    .map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`)
    .join(",\n")}}\n`;
  const { outDir } = state;
  writeFileAtomically(join(outDir, STATE_PATH), text);
  rmSync(join(outDir, STATE_JOURNAL_PATH), { force: true });
  for (const path of state.oldFiles) rmSync(join(outDir, path), { force: true, recursive: true });
  state.oldFiles = [];
  state.owned = new Set(paths);
  state.journaledVersions = new Map();
  state.unfinished = false;
}
