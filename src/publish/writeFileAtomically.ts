import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

const TEMPORARY_SUFFIX = ".spi-static.tmp";

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
 * the rename never crosses a file system and stays atomic.
 */
export async function writeFileAtomically(path: string, content: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temporary = join(
    dir,
    `.${basename(path)}.${randomBytes(6).toString("hex")}${TEMPORARY_SUFFIX}`,
  );
  try {
    await writeFile(temporary, content);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}
