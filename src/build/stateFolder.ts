import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SpiStaticError } from "../exit/spiStaticError.js";

/**
 * The build's own bookkeeping (the state file and its journal, the lock, the input cache and
 * staging folders) in the output folder. Not part of the API: the edge rules answer 404 for it
 * like for any other unknown path, and it holds nothing secret.
 */
export const STATE_DIR = "_spi-static";
export const LOCK_PATH = `${STATE_DIR}/build.lock`;

/**
 * A state file the build cannot read (a folder in its place, no permission) or of a format this
 * spi-static does not know: named, with what is wrong and what to do. Nothing was written.
 * Damaged content is never this: it is dropped and its work done again (buildState.ts).
 */
export class DamagedStateError extends SpiStaticError {
  readonly kind = "failure";

  constructor(
    readonly path: string,
    problem: string,
    remedy: string,
  ) {
    super(`${path} is damaged: ${problem}. Nothing was written. ${remedy}`);
    this.name = "DamagedStateError";
  }

  override toJsonReport(): Record<string, unknown> {
    return { error: this.message, path: this.path };
  }
}

/** What a build found damaged in the state and dropped, each with what it did instead. */
export type ShortcutNotes = string[];

/**
 * A state file's text, or undefined when this output folder has none yet; one that cannot be
 * read (a folder in its place, no permission) is a DamagedStateError with `remedy`.
 */
export function readStateFile(outDir: string, path: string, remedy: string): string | undefined {
  const full = join(outDir, path);
  try {
    return readFileSync(full, "utf8");
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === "ENOENT") return undefined;
    const problem =
      code === "EISDIR" ? "it is a folder, not a file" : `it cannot be read (${message})`;
    throw new DamagedStateError(full, problem, remedy);
  }
}
