import { appendFileSync, rmSync } from "node:fs";
import { join, posix } from "node:path";
import { writeFileAtomically } from "../publish/writeFileAtomically.js";
import {
  DamagedStateError,
  JOURNAL_PATH,
  MANIFEST_PATH,
  readStateFile,
  STATE_DIR,
} from "./stateFolder.js";

/**
 * Which files under out/ the build owns, and so may replace or delete. The manifest lists the
 * files of the last complete build; the journal lists every path a later, unfinished build was
 * about to create, recorded before the file appears, so a killed build never leaves a file that
 * no later build would recognise as its own.
 */
export interface ManifestFile {
  generator: "spi-static";
  files: string[];
}

/** Control characters, and what a byte that is not UTF-8 decodes to: never in a path the build writes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNPRINTABLE = /[\u0000-\u001f\u007f\ufffd]/;

const MANIFEST_REMEDY =
  "Delete it to start over: the files earlier builds wrote then count as foreign and are left " +
  "alone (remove them by hand, or build into an empty folder).";
const JOURNAL_REMEDY =
  "Delete it to go on: the files a killed build was creating then count as foreign and are left alone.";

/** A relative path that stays inside out/ and outside the build's own bookkeeping. */
export function isSitePath(path: string): boolean {
  return (
    path.length > 0 &&
    !posix.isAbsolute(path) &&
    posix.normalize(path) === path &&
    !path.startsWith("../") &&
    path !== ".." &&
    path !== "." &&
    !path.endsWith("/") &&
    !path.includes("\\") &&
    !UNPRINTABLE.test(path) &&
    path !== STATE_DIR &&
    !path.startsWith(`${STATE_DIR}/`)
  );
}

/**
 * Paths owned by an earlier build: the manifest plus what unfinished builds journaled. Ownership
 * decides what a build may replace or delete, so a damaged manifest or journal stops the build
 * (DamagedStateError: the file, what is wrong, what to do) rather than be guessed at. The last
 * journal line without its newline is an append a kill cut short: the file never appeared.
 */
export function readOwnedPaths(outDir: string): Set<string> {
  const owned = new Set<string>();
  const manifest = readStateFile(outDir, MANIFEST_PATH, MANIFEST_REMEDY);
  if (manifest !== undefined) {
    const damaged = (problem: string) =>
      new DamagedStateError(join(outDir, MANIFEST_PATH), problem, MANIFEST_REMEDY);
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifest);
    } catch {
      throw damaged("it is not valid JSON");
    }
    const files = (parsed as Partial<ManifestFile> | null)?.files;
    if (!Array.isArray(files)) throw damaged('it has no "files" list');
    // An entry outside the output folder is never the build's: ignored, so never deleted.
    for (const path of files) if (typeof path === "string" && isSitePath(path)) owned.add(path);
  }
  const journal = readStateFile(outDir, JOURNAL_PATH, JOURNAL_REMEDY);
  const lines = journal?.split("\n") ?? [];
  lines.pop();
  for (const [i, path] of lines.entries()) {
    if (!isSitePath(path)) {
      throw new DamagedStateError(
        join(outDir, JOURNAL_PATH),
        `line ${i + 1} is not a path in the output folder`,
        JOURNAL_REMEDY,
      );
    }
    owned.add(path);
  }
  return owned;
}

/** Records paths the build is about to create; one append per batch of documents. */
export function journalPaths(outDir: string, paths: string[]): void {
  if (paths.length > 0) appendFileSync(join(outDir, JOURNAL_PATH), `${paths.join("\n")}\n`);
}

/** The build finished: its files are the owned set, and the journal is no longer needed. */
export function commitManifest(outDir: string, paths: Iterable<string>): void {
  const manifest: ManifestFile = { generator: "spi-static", files: [...paths].sort() };
  writeFileAtomically(join(outDir, MANIFEST_PATH), `${JSON.stringify(manifest, null, 1)}\n`);
  rmSync(join(outDir, JOURNAL_PATH), { force: true });
}
