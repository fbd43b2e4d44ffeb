import type { BuildState } from "./buildState.js";
import { recordedState, type SeenFile } from "./fileState.js";

/**
 * What each published document was made from: its inputs (a digest, see
 * render/documentInputs.ts) and its file's state and digest (fileState.ts) when the build
 * that recorded it ended. A later build whose inputs for a document are the same, and whose file
 * is still that file (by its state, or else by its bytes), leaves the document as it is without
 * rendering it: a full build would render the same bytes apart from creationTime, and so keep
 * the file too. Kept in the state (buildState.ts), written after every complete build; a build
 * killed midway leaves the last record, in which every file it replaced or removed no longer
 * matches, so those are rendered.
 */
export interface RecordedInputs {
  inputs: string;
  /** The published file, as the build that recorded it left it. */
  file: SeenFile;
}

export type InputsRecord = Map<string, RecordedInputs>;

/**
 * The last complete build's record; empty when there is none, or when the state's part is
 * damaged (dropped when read, said in notes: stateParts.ts): then every document is rendered and
 * compared, as on a first build. A stale record is never wrong either: a file is reused only if
 * it still is the file recorded.
 */
export function readInputsRecord(state: BuildState): InputsRecord {
  const record: InputsRecord = new Map();
  for (const [path, [inputs, fileState, digest]] of Object.entries(state.documents)) {
    record.set(path, { inputs, file: { state: fileState, digest } });
  }
  return record;
}

/** Replaces the record in the state (written with it). */
export function writeInputsRecord(state: BuildState, record: InputsRecord): void {
  const documents: BuildState["documents"] = {};
  const at = Date.now();
  for (const [path, { inputs, file }] of [...record].sort(([a], [b]) => (a < b ? -1 : 1))) {
    documents[path] = [inputs, recordedState(file, at), file.digest];
  }
  state.documents = documents;
}

/**
 * Files found the same by their bytes since the record was written (an up-to-date check hashed
 * them): their entries get the state seen now, trusted once settled by `at`, so the next plan
 * does not hash them again. An entry with another digest is left as it is.
 */
export function restateRecordedFiles(
  state: BuildState,
  files: ReadonlyMap<string, SeenFile>,
  at: number,
): void {
  const documents: Partial<BuildState["documents"]> = state.documents;
  for (const [path, file] of files) {
    const entry = documents[path];
    if (entry?.[2] === file.digest) {
      documents[path] = [entry[0], recordedState(file, at), file.digest];
    }
  }
}
