import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type DebugTopic, debug } from "../debug/debugLog.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

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

/** A state file's text, or undefined when this output folder has none yet. */
export function readStateFile(outDir: string, path: string): string | undefined {
  try {
    return readFileSync(join(outDir, path), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * A record that only saves work (checks.json, digests.json): its object, or an empty one when it
 * is missing or damaged, for then the work is done again, as on a first build.
 */
export function readShortcutRecord<T extends object>(outDir: string, path: string): Partial<T> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(outDir, path), "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as Partial<T>) : {};
  } catch {
    return {};
  }
}

/** Writes such a record after a published build; one not written is only missing next time. */
export function writeShortcutRecord(
  outDir: string,
  path: string,
  record: object,
  topic: DebugTopic,
): void {
  try {
    writeFileAtomically(join(outDir, path), `${JSON.stringify(record)}\n`);
  } catch (error) {
    debug(topic, () => `${path} not written (${(error as Error).message})`);
  }
}
