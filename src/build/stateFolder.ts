import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type DebugTopic, debug } from "../debug/debugLog.js";
import { SpiStaticError } from "../exit/spiStaticError.js";
import { writeFileAtomically } from "../publish/writeFileAtomically.js";

/**
 * The build's own bookkeeping (manifest, journal, lock, stamp, document versions and inputs) in the output folder. Not part of
 * the API: the edge rules answer 404 for it like for any other unknown path, and it holds
 * nothing secret.
 */
export const STATE_DIR = "_spi-static";
export const MANIFEST_PATH = `${STATE_DIR}/manifest.json`;
export const JOURNAL_PATH = `${STATE_DIR}/journal`;
export const LOCK_PATH = `${STATE_DIR}/build.lock`;
export const STAMP_PATH = `${STATE_DIR}/stamp.json`;
export const VERSIONS_PATH = `${STATE_DIR}/versions.json`;
export const VERSIONS_JOURNAL_PATH = `${STATE_DIR}/versions.journal`;
export const DOCUMENTS_PATH = `${STATE_DIR}/documents.json`;
export const CHECKS_PATH = `${STATE_DIR}/checks.json`;
export const DIGESTS_PATH = `${STATE_DIR}/digests.json`;

/**
 * A state file the build cannot go on without (the ownership manifest and its journal, the
 * document versions and theirs) is damaged: named, with what is wrong and what to do. Nothing
 * was written. Records that only save work are never this: they are ignored (ShortcutNotes).
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
 * A record that only saves work (checks.json, digests.json, documents.json): its object, or an
 * empty one when it is missing or damaged, for then the work is done again, as on a first build.
 * A damaged one is said in `notes` (file, what is wrong, what happens).
 */
export function readShortcutRecord<T extends object>(
  outDir: string,
  path: string,
  notes?: ShortcutNotes,
): Partial<T> {
  const full = join(outDir, path);
  const ignored = (problem: string) => {
    notes?.push(
      `${full} ${problem}: ignored; the work it saves was done again, and it is rewritten`,
    );
    return {};
  };
  let text: string;
  try {
    text = readFileSync(full, "utf8");
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === "ENOENT") return {};
    return ignored(code === "EISDIR" ? "is a folder, not a file" : `cannot be read (${code})`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Partial<T>;
    }
  } catch {
    // Said below.
  }
  return ignored("is not a JSON object");
}

/**
 * Writes such a record after a published build; one not written is only missing next time (a
 * folder in its place is removed, so that the next build can write it).
 */
export function writeShortcutRecord(
  outDir: string,
  path: string,
  record: object,
  topic: DebugTopic,
): void {
  const full = join(outDir, path);
  const text = `${JSON.stringify(record)}\n`;
  try {
    writeFileAtomically(full, text);
  } catch {
    try {
      rmSync(full, { force: true, recursive: true });
      writeFileAtomically(full, text);
    } catch (error) {
      debug(topic, () => `${path} not written (${(error as Error).message})`);
    }
  }
}
