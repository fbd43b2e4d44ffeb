import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const TEMPORARY_SUFFIX = ".spi-static.tmp";
/** Temporary names unique to this process: its pid and a count (no random bytes per file). */
let temporaryCount = 0;

/**
 * A build that is killed mid-write leaves its temporary file behind; the name says whose it is,
 * so the next build can remove it without touching anybody else's files.
 */
export function isTemporaryFile(name: string): boolean {
  return name.startsWith(".") && name.endsWith(TEMPORARY_SUFFIX);
}

/**
 * Writes through a temporary file in the same folder, then renames it over the target: a reader
 * (or a CDN sync) sees the old document or the new one, never a part of either. Same folder, so
 * the rename never crosses a file system and stays atomic. Synchronous: for thousands of small
 * files in a command-line build, blocking calls are about twice as fast as the thread pool (and
 * on a 2-core machine, writing on the pool while rendering was slower still). Creates the folder
 * only when the write finds it missing: one call fewer for every file in an existing folder.
 */
export function writeFileAtomically(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  const temporary = join(
    dir,
    `.${basename(path)}.${process.pid}-${(temporaryCount++).toString(36)}${TEMPORARY_SUFFIX}`,
  );
  try {
    writeIntoFolder(temporary, content);
    renameSync(temporary, path);
  } catch (error) {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The folder refuses changes altogether: there is no temporary file to remove.
    }
    throw error;
  }
}

function writeIntoFolder(path: string, content: string | Uint8Array): void {
  try {
    writeFileSync(path, content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}
