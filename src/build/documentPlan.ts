import type { SeenFile } from "./fileState.js";
import type { RecordedInputs } from "./inputsRecord.js";

/** Whether a planned document is rendered, and why: one sentence a reader can check. */
export type DocumentPlan = { render: false; file: SeenFile } | { render: true; why: RenderReason };

export type RenderReason =
  | "--force renders every document"
  | "no earlier build recorded it"
  | "its inputs changed"
  | "a killed build journaled a version for it"
  | "its published file is gone or not the one the last build wrote";

/**
 * The decision for one document, free of the disk: reused (not rendered) only when the last
 * complete build recorded the same inputs for it, no unfinished build journaled a version for it
 * since, and its published file is still the one recorded (`seeUnchanged`, fileState.ts:
 * by its state, or else by its bytes); then `file` is what to record for it now.
 */
export function planDocument({
  force,
  before,
  inputs,
  journaled,
  seeUnchanged,
}: {
  force: boolean;
  before: RecordedInputs | undefined;
  inputs: string | undefined;
  journaled: boolean;
  seeUnchanged: (recorded: SeenFile) => SeenFile | undefined;
}): DocumentPlan {
  if (force) return { render: true, why: "--force renders every document" };
  if (before === undefined) return { render: true, why: "no earlier build recorded it" };
  if (before.inputs !== inputs) return { render: true, why: "its inputs changed" };
  if (journaled) return { render: true, why: "a killed build journaled a version for it" };
  const file = seeUnchanged(before.file);
  if (file === undefined) {
    return { render: true, why: "its published file is gone or not the one the last build wrote" };
  }
  return { render: false, file };
}
