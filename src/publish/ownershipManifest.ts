import { appendFileSync, rmSync } from "node:fs";
import { join, posix } from "node:path";
import { JOURNAL_PATH, MANIFEST_PATH, readStateFile, STATE_DIR } from "./stateFolder.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

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
    path !== STATE_DIR &&
    !path.startsWith(`${STATE_DIR}/`)
  );
}

/** Paths owned by an earlier build: the manifest plus what unfinished builds journaled. */
export function readOwnedPaths(outDir: string): Set<string> {
  const owned = new Set<string>();
  const manifest = readStateFile(outDir, MANIFEST_PATH);
  if (manifest !== undefined) {
    let parsed: Partial<ManifestFile>;
    try {
      parsed = JSON.parse(manifest) as Partial<ManifestFile>;
    } catch {
      // Written atomically by every build, so only a hand edit can break it.
      throw new Error(
        "it is not valid JSON; delete it to start over (files of earlier builds then count as foreign)",
      );
    }
    for (const path of parsed.files ?? []) if (isSitePath(path)) owned.add(path);
  }
  const journal = readStateFile(outDir, JOURNAL_PATH);
  for (const path of journal?.split("\n") ?? []) if (isSitePath(path)) owned.add(path);
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
