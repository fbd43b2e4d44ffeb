import { rmSync } from "node:fs";
import { join } from "node:path";
import { recordedState, type SeenFile } from "./fileState.js";
import {
  DOCUMENTS_PATH,
  readShortcutRecord,
  type ShortcutNotes,
  writeShortcutRecord,
} from "./stateFolder.js";

/**
 * What each published document was made from: its inputs (a digest, see
 * render/documentInputs.ts) and its file's state and digest (fileState.ts) when the build
 * that recorded it ended. A later build whose inputs for a document are the same, and whose file
 * is still that file (by its state, or else by its bytes), leaves the document as it is without
 * rendering it: a full build would render the same bytes apart from creationTime, and so keep
 * the file too. Written after every complete build; a build killed midway leaves the last
 * record, in which every file it replaced or removed no longer matches, so those are rendered.
 */
export interface RecordedInputs {
  inputs: string;
  /** The published file, as the build that recorded it left it. */
  file: SeenFile;
}

export type InputsRecord = Map<string, RecordedInputs>;

interface RecordFile {
  documents: Record<string, [inputs: string, state: string, digest: string]>;
}

/**
 * The last complete build's record; empty when there is none, and when it is damaged (said in
 * `notes`): then every document is rendered and compared, as on a first build. A stale record
 * is never wrong either: a file is reused only if it still is the file recorded.
 */
export function readInputsRecord(outDir: string, notes?: ShortcutNotes): InputsRecord {
  const record: InputsRecord = new Map();
  const { documents } = readShortcutRecord<RecordFile>(outDir, DOCUMENTS_PATH, notes);
  if (typeof documents !== "object" || documents === null) return record;
  for (const [path, entry] of Object.entries(documents)) {
    if (Array.isArray(entry) && entry.every((part) => typeof part === "string")) {
      const [inputs = "", state = "", digest = ""] = entry;
      if (/^[0-9a-f]{64}$/.test(digest)) record.set(path, { inputs, file: { state, digest } });
    }
  }
  return record;
}

/** Replaces the record. Never fails the build: a record not written only saves less next time. */
export function writeInputsRecord(outDir: string, record: InputsRecord): void {
  if (record.size === 0) {
    rmSync(join(outDir, DOCUMENTS_PATH), { force: true, recursive: true });
    return;
  }
  const documents: RecordFile["documents"] = {};
  const at = Date.now();
  for (const [path, { inputs, file }] of [...record].sort(([a], [b]) => (a < b ? -1 : 1))) {
    documents[path] = [inputs, recordedState(file, at), file.digest];
  }
  writeShortcutRecord(outDir, DOCUMENTS_PATH, { documents }, "publish");
}
