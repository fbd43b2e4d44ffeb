import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { isProcessAlive } from "./buildLock.js";
import { STATE_DIR } from "./stateFolder.js";

/**
 * A folder of one build's own under out/_spi-static/, for what it makes before it publishes, so
 * it holds no more in memory than the file it is writing: the input cache entries it makes
 * (`<key>.v8`, moved into inputs/ only when it publishes) and the documents it renders ahead
 * (`ahead-<n>.xml`, read back when published). Made at the first write; the build drops it when
 * it is done, and a build killed before that leaves it to the next (removeStaleStaging).
 */
export interface StagingFolder {
  /** Where a file of this name is (or would be) staged. */
  pathOf(name: string): string;
  /** Stages a file; false when it could not be written (the caller does without). */
  write(name: string, bytes: Uint8Array): boolean;
  /**
   * Removes the folder and what is left in it, never failing; `andParents`: with the folders its
   * creation made (out/ itself on a first build), so a refused first build leaves nothing behind.
   */
  drop(andParents?: boolean): void;
}

/** A staging folder of another machine this old was left by a build that died. */
const STALE_STAGING_MS = 86_400_000;
/** Also the two kinds of staging folder builds before issue 33 made. */
const STAGING_NAME = /^(?:inputs-|ahead-)?staging-(.+)-(\d+)-[0-9a-f]{12}$/;

export function openStagingFolder(outDir: string): StagingFolder {
  const name = `staging-${hostname()}-${process.pid}-${randomBytes(6).toString("hex")}`;
  const dir = join(outDir, STATE_DIR, name);
  let made = false;
  /** The first folder the staging folder's creation made. */
  let firstMade: string | undefined;
  return {
    pathOf: (name) => join(dir, name),
    write(name, bytes) {
      try {
        if (!made) firstMade = mkdirSync(dir, { recursive: true });
        made = true;
        writeFileSync(join(dir, name), bytes);
        return true;
      } catch {
        return false;
      }
    },
    drop(andParents = false) {
      try {
        if (made) rmSync(andParents ? (firstMade ?? dir) : dir, { recursive: true, force: true });
      } catch {
        // Left for a later build (removeStaleStaging): what is staged never fails a build.
      }
      made = false;
    },
  };
}

/**
 * Staging folders of builds that died (killed before they could publish or drop them): on this
 * machine, those whose process is gone; of another machine sharing out/, those a day old.
 */
export function removeStaleStaging(outDir: string): void {
  const stateDir = join(outDir, STATE_DIR);
  let names: string[];
  try {
    names = readdirSync(stateDir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = STAGING_NAME.exec(name);
    if (!match) continue;
    const path = join(stateDir, name);
    try {
      const dead =
        match[1] === hostname()
          ? !isProcessAlive(Number(match[2]))
          : Date.now() - lstatSync(path).mtimeMs > STALE_STAGING_MS;
      if (dead) rmSync(path, { recursive: true, force: true });
    } catch {
      // Another build's, removed meanwhile; or left for a later build.
    }
  }
}
