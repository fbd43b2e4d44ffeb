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
 * A state file the build cannot go on without (the ownership and version parts of the state,
 * and the journal) is damaged: named, with what is wrong and what to do. Nothing was written.
 * The parts that only save work are never this: they are ignored (ShortcutNotes).
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

/** What a build found damaged and ignored in the records that only save it work. */
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

/**
 * A part of the state that only saves work (the document inputs, the checks, the data file
 * digests, the stamp): the object as stored, or an empty one when it is damaged, for then the
 * work is done again, as on a first build. A damaged one is said in `notes` (`where`: the file
 * and the part, what is wrong, what happens).
 */
export function cacheSection(
  value: unknown,
  where: string,
  notes: ShortcutNotes,
): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  notes.push(
    `${where} ${value === undefined ? "is missing" : "is not a JSON object"}: ignored; ` +
      "the work it saves was done again, and it is rewritten",
  );
  return {};
}
