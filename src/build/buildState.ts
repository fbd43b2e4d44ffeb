import { appendFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomically } from "../publish/writeFileAtomically.js";
import { isSitePath } from "./ownershipManifest.js";
import { DamagedStateError, readStateFile, type ShortcutNotes, STATE_DIR } from "./stateFolder.js";
import {
  type DocumentRecord,
  emptyParts,
  INSTEAD,
  PART_NAMES,
  type PartName,
  partSum,
  type StateParts,
  type StoredStamp,
  VALIDATORS,
} from "./stateParts.js";

/**
 * What the build remembers, in one file, `out/_spi-static/state.json`, written atomically when a
 * build completes, and one journal, `out/_spi-static/state.journal`, while a build is
 * unfinished. Read once at the start of a build (under the lock, which buildSite holds for the
 * whole build); written by commitBuildState only (publishSite: once before pruning, once after).
 *
 * Its parts are stateParts.ts's, each written on a line of its own with a sum beside it
 * (`sums`). Damage never stops a build: a part that fails its validator or its sum is dropped,
 * its work done again (stateParts.ts INSTEAD) and said in `notes`; a state.json that is not
 * JSON at all is dropped whole, as are journal lines that are not journal lines. Only a state
 * of a format this spi-static does not know (a newer one's) stops it, unread.
 *
 * The journal has a line per path a build is about to create ("owns <path>") and per version it
 * is about to publish ("version <n> <path>"), appended before each batch's files are written.
 * Its last line without a newline is an append a kill cut short: the files never appeared.
 */
export const STATE_PATH = `${STATE_DIR}/state.json`;
export const STATE_JOURNAL_PATH = `${STATE_DIR}/state.journal`;
/** state.json's format; a file of another one is refused rather than misread. */
export const STATE_FORMAT = 1;

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
  documents: StateParts["documents"];
  checks: StateParts["checks"];
  digests: StateParts["digests"];
  services: StateParts["services"];
  logos: StateParts["logos"];
  /** buildStamp.ts; none after a build with errors, and until the stale files are pruned. */
  stamp: StoredStamp | undefined;
  /** The damaged parts that were dropped, and what the build did instead (BuildSummary.notes). */
  readonly notes: ShortcutNotes;
}

const START_OVER =
  "the files earlier builds wrote then count as foreign and are left alone, and versions go " +
  "on from the published files' own.";
const REMEDY = `Delete it to start over: ${START_OVER}`;

/** The state the last complete build left, with what unfinished builds journaled since. */
export function readBuildState(outDir: string, notes: ShortcutNotes = []): BuildState {
  const text = readStateFile(outDir, STATE_PATH, REMEDY);
  const parts =
    text === undefined ? emptyParts() : parseState(join(outDir, STATE_PATH), text, notes);
  const state: BuildState = {
    outDir,
    owned: new Set(parts.owned),
    versions: new Map(Object.entries(parts.versions)),
    documents: parts.documents,
    checks: parts.checks,
    digests: parts.digests,
    services: parts.services,
    logos: parts.logos,
    stamp: parts.stamp ?? undefined,
    journaledVersions: new Map(),
    unfinished: false,
    notes,
  };
  readJournal(state);
  return state;
}

/** The parts that pass their checks; the others are a first build's, said in `notes`. */
function parseState(path: string, text: string, notes: ShortcutNotes): StateParts {
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    // Cut short (a full disk) or overwritten: nothing in it can be told from damage.
  }
  if (typeof file !== "object" || file === null || Array.isArray(file)) {
    notes.push(
      `${path} is not a JSON object (cut short or damaged): dropped whole; the build went on as ` +
        `a first build would: ${INSTEAD.owned}, and ${INSTEAD.versions}; it is written anew`,
    );
    return emptyParts();
  }
  const stored = file as Record<string, unknown>;
  if (stored.formatVersion !== STATE_FORMAT && typeof stored.formatVersion === "number") {
    throw new DamagedStateError(
      path,
      `its formatVersion is ${stored.formatVersion}, which this spi-static does not know (a newer one wrote it?)`,
      `Build with the spi-static that wrote it, or delete it to start over: ${START_OVER}`,
    );
  }
  // A state written before the sums were has none: its parts are checked by their shape alone.
  const sums = stored.sums === undefined ? undefined : Object(stored.sums);
  const parts: Record<PartName, unknown> = { ...emptyParts() };
  for (const name of PART_NAMES) {
    const value = stored[name];
    // Absent from a state.json written before it was a part: as on a first build, unsaid.
    if (value === undefined && (name === "services" || name === "logos")) continue;
    // A digest changed by a byte has its shape, and would be read as its data file changing:
    // without a sum (a state written before them) every file is hashed again, once.
    if (sums === undefined && name === "digests") continue;
    const problem =
      value === undefined
        ? "is missing"
        : !VALIDATORS[name](value)
          ? "is not of its shape"
          : sums && sums[name] !== partSum(JSON.stringify(value))
            ? "does not match its sum (changed since it was written)"
            : undefined;
    if (problem === undefined) parts[name] = value;
    else
      notes.push(`${path} ("${name}") ${problem}: dropped; ${INSTEAD[name]}; it is written anew`);
  }
  return parts as unknown as StateParts;
}

const OWNS = "owns ";
const VERSION = /^version (\d+) (.*)$/s;

/** Adds what unfinished builds journaled; lines that are not journal lines are dropped, said. */
function readJournal(state: BuildState): void {
  const text = readStateFile(state.outDir, STATE_JOURNAL_PATH, REMEDY);
  if (text === undefined) return;
  state.unfinished = true;
  const lines = text.split("\n");
  lines.pop();
  let damaged = 0;
  for (const line of lines) {
    const version = VERSION.exec(line);
    const [number, path] = [Number(version?.[1]), version?.[2] ?? ""];
    if (line.startsWith(OWNS) && isSitePath(line.slice(OWNS.length))) {
      state.owned.add(line.slice(OWNS.length));
    } else if (version && Number.isSafeInteger(number) && number >= 1 && isSitePath(path)) {
      state.journaledVersions.set(path, Math.max(number, state.journaledVersions.get(path) ?? 0));
    } else {
      damaged++;
    }
  }
  if (damaged > 0) {
    state.notes.push(
      `${join(state.outDir, STATE_JOURNAL_PATH)}: ${damaged} of its ${lines.length} lines are not ` +
        `"owns <path>" or "version <number> <path>": dropped; the files a killed build was ` +
        `creating count as foreign and are left alone, and ${INSTEAD.versions}`,
    );
  }
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
 * the journal is no longer needed.
 */
export function commitBuildState(
  state: BuildState,
  {
    owned = state.owned,
    versions = state.versions,
  }: { owned?: Iterable<string>; versions?: ReadonlyMap<string, DocumentRecord> } = {},
): void {
  const paths = [...owned].sort();
  const parts: StateParts = {
    owned: paths,
    versions: Object.fromEntries(versions),
    documents: state.documents,
    checks: state.checks,
    digests: state.digests,
    services: state.services,
    logos: state.logos,
    stamp: state.stamp ?? null,
  };
  const lines = PART_NAMES.map((name) => [name, JSON.stringify(parts[name])] as const);
  const sums = Object.fromEntries(lines.map(([name, json]) => [name, partSum(json)]));
  // A part per line: a reader (or diff) sees at a glance which part changed.
  const text = `{"formatVersion":${STATE_FORMAT},"generator":"spi-static",\n${lines
    .map(([name, json]) => `${JSON.stringify(name)}:${json},\n`)
    .join("")}"sums":${JSON.stringify(sums)}}\n`;
  const { outDir } = state;
  writeFileAtomically(join(outDir, STATE_PATH), text);
  rmSync(join(outDir, STATE_JOURNAL_PATH), { force: true });
  state.owned = new Set(paths);
  state.journaledVersions = new Map();
  state.unfinished = false;
}
