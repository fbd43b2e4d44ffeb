/**
 * ONE-TIME MIGRATION from the records before state.json (spi-static up to issue 23: six record
 * files and two journals in out/_spi-static/). When an output folder has no state.json but has these,
 * the build reads them here, so that no file an earlier build owned becomes foreign and no
 * version drops; its state.json is then written as usual, and the old files are removed
 * (commitBuildState). The old stamp is dropped: the first build after the upgrade is not "up to
 * date" (it costs one incremental build; an upgrade changes the program's fingerprint, so that
 * build renders everything anyway).
 *
 * Can be deleted (with its two calls in buildState.ts and test/build/migrateOldState.test.ts) once
 * every output folder that matters has been built once by a version with state.json: after the
 * first release that has state.json has been out for a while (at least one release later); an
 * older folder built after that counts its files as foreign (left alone) and its versions go on
 * from its published files.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { StoredState } from "./buildState.js";
import { parseVersionRecords } from "./documentVersions.js";
import { isSitePath, parseOwnedPaths } from "./ownershipManifest.js";
import {
  cacheSection,
  DamagedStateError,
  readStateFile,
  type ShortcutNotes,
  STATE_DIR,
} from "./stateFolder.js";

const MANIFEST_PATH = `${STATE_DIR}/manifest.json`;
const JOURNAL_PATH = `${STATE_DIR}/journal`;
const VERSIONS_PATH = `${STATE_DIR}/versions.json`;
const VERSIONS_JOURNAL_PATH = `${STATE_DIR}/versions.journal`;
const DOCUMENTS_PATH = `${STATE_DIR}/documents.json`;
const CHECKS_PATH = `${STATE_DIR}/checks.json`;
const DIGESTS_PATH = `${STATE_DIR}/digests.json`;
const STAMP_PATH = `${STATE_DIR}/stamp.json`;

const OLD_FILES = [
  MANIFEST_PATH,
  JOURNAL_PATH,
  VERSIONS_PATH,
  VERSIONS_JOURNAL_PATH,
  DOCUMENTS_PATH,
  CHECKS_PATH,
  DIGESTS_PATH,
  STAMP_PATH,
];

const MANIFEST_REMEDY =
  "Delete it to start over: the files earlier builds wrote then count as foreign and are left " +
  "alone (remove them by hand, or build into an empty folder).";
const JOURNAL_REMEDY =
  "Delete it to go on: the files a killed build was creating then count as foreign and are left alone.";
const VERSIONS_REMEDY =
  "Delete it to start over: versions then continue from those of the published files.";
const VERSIONS_JOURNAL_REMEDY =
  "Delete it to go on: versions then continue from the record and the published files, " +
  "which could repeat a version a killed build gave to a file it was writing.";

/** The old records still in the folder (a build killed between writing state.json and removing them). */
export function leftOldStateFiles(outDir: string): string[] {
  return OLD_FILES.filter((path) => existsSync(join(outDir, path)));
}

/** What the old records hold, as the parts of a state; undefined when there are none. */
export interface OldState {
  state: StoredState;
  journaledVersions: Map<string, number>;
  /** An old journal was found: a build was killed or failed since. */
  unfinished: boolean;
  /** The old files found, to remove once state.json is written. */
  files: string[];
}

/**
 * The old records, with their old failure policy: the manifest, the versions and their
 * journals stop the build when damaged (DamagedStateError naming the old file), the records that
 * only save work are ignored when damaged (said in `notes`).
 */
export function readOldState(outDir: string, notes: ShortcutNotes): OldState | undefined {
  const files = leftOldStateFiles(outDir);
  if (files.length === 0) return undefined;
  const strict = (path: string, remedy: string) => {
    const text = readStateFile(outDir, path, remedy);
    if (text === undefined || text === "") return undefined;
    try {
      return JSON.parse(text) as Record<string, unknown> | null;
    } catch {
      throw new DamagedStateError(join(outDir, path), "it is not valid JSON", remedy);
    }
  };
  const damaged = (path: string, remedy: string) => (problem: string) =>
    new DamagedStateError(join(outDir, path), problem, remedy);

  const manifest = strict(MANIFEST_PATH, MANIFEST_REMEDY);
  const owned =
    manifest === undefined
      ? new Set<string>()
      : parseOwnedPaths(manifest?.files, () =>
          damaged(MANIFEST_PATH, MANIFEST_REMEDY)('it has no "files" list'),
        );
  for (const [i, path] of journalLines(outDir, JOURNAL_PATH, JOURNAL_REMEDY).entries()) {
    if (!isSitePath(path)) {
      throw damaged(
        JOURNAL_PATH,
        JOURNAL_REMEDY,
      )(`line ${i + 1} is not a path in the output folder`);
    }
    owned.add(path);
  }

  const versionsFile = strict(VERSIONS_PATH, VERSIONS_REMEDY);
  const versions =
    versionsFile === undefined
      ? new Map()
      : parseVersionRecords(versionsFile?.documents, (problem) =>
          damaged(
            VERSIONS_PATH,
            VERSIONS_REMEDY,
          )(problem === "it has no version records" ? 'it has no "documents" object' : problem),
        );
  const journaledVersions = new Map<string, number>();
  const versionLines = journalLines(outDir, VERSIONS_JOURNAL_PATH, VERSIONS_JOURNAL_REMEDY);
  for (const [i, line] of versionLines.entries()) {
    const space = line.indexOf(" ");
    const version = Number(line.slice(0, space));
    const path = line.slice(space + 1);
    if (!(space > 0 && Number.isSafeInteger(version) && version >= 1 && isSitePath(path))) {
      throw damaged(
        VERSIONS_JOURNAL_PATH,
        VERSIONS_JOURNAL_REMEDY,
      )(`line ${i + 1} is not "<version> <path>"`);
    }
    journaledVersions.set(path, Math.max(version, journaledVersions.get(path) ?? 0));
  }

  const documents = lenient(outDir, DOCUMENTS_PATH, notes);
  return {
    state: {
      owned,
      versions,
      documents:
        documents === undefined
          ? {}
          : cacheSection(
              documents.documents,
              `${join(outDir, DOCUMENTS_PATH)} ("documents")`,
              notes,
            ),
      checks: lenient(outDir, CHECKS_PATH, notes) ?? {},
      digests: lenient(outDir, DIGESTS_PATH, notes) ?? {},
      // The old records had no services' routes: --keep-going looks under the provider's host.
      services: {},
      stamp: undefined,
    },
    journaledVersions,
    unfinished: files.includes(JOURNAL_PATH) || files.includes(VERSIONS_JOURNAL_PATH),
    files,
  };
}

/** A journal's complete lines (the last one without a newline is an append a kill cut short). */
function journalLines(outDir: string, path: string, remedy: string): string[] {
  const lines = readStateFile(outDir, path, remedy)?.split("\n") ?? [];
  lines.pop();
  return lines;
}

/** A record that only saves work: its object; undefined when missing, {} when damaged (noted). */
function lenient(
  outDir: string,
  path: string,
  notes: ShortcutNotes,
): Record<string, unknown> | undefined {
  const full = join(outDir, path);
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(readFileSync(full, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  }
  return cacheSection(parsed, full, notes);
}
