import { createHash } from "node:crypto";
import { programmeInformationInputs } from "../render/documentInputs.js";
import { ROLL_MAX_DAYS, rolledWindow } from "../schedule/rollCheck.js";
import type { LayoutSpan, ServiceCheck } from "../schedule/serviceCheck.js";
import { programmeInformationPath } from "../site/siteContract.js";
import { dateRange, daysBetween, type PlainDate } from "../time/plainDate.js";
import { STATE_PATH } from "./buildState.js";
import { compareState, recordedState, type SeenFile } from "./fileState.js";
import { describeChanges, type InputChanges } from "./inputChanges.js";
import type { RecordedInputs } from "./inputsRecord.js";
import type { RecordedCheck } from "./stateParts.js";

/**
 * The plan: what a build does again and why, decided up front from plain values (the records an
 * earlier build left, what the engine observed of the published files, the build's days) and
 * nothing else: no disk, no clock. The engine (buildSite.ts) gathers the values, asks here, and
 * carries the plan out; SPI_STATIC_DEBUG=plan prints each reason. In one sentence: a document is
 * reused (not rendered) only when the last complete build recorded the same inputs for it, no
 * unfinished build journaled a version for it since, and its published file is still the one
 * recorded; a service's check is reused when it was recorded under the same key for the same
 * days, and rolled on (only its new days laid out) when the days moved on by a few.
 */

/** Why a document is rendered: one sentence a reader can check. */
export type RenderReason =
  | "--force renders every document"
  | "no earlier build recorded it"
  | "its inputs changed"
  | "a killed build journaled a version for it"
  | "its published file is gone or not the one the last build wrote";

/** Why a service is laid out in full to be checked instead of taking its recorded check. */
export type LayoutReason =
  | "--force checks every service"
  | "no check recorded for it"
  | "its inputs changed"
  | `its days moved back, or on by more than ${typeof ROLL_MAX_DAYS} days`
  | "its recorded check is not split by day";

/**
 * One document's decision. `hash`: its inputs are as recorded but its file's state is not (a CI
 * restore, a copy, or an edit): reused if its bytes still have the recorded digest, which only
 * the engine can read (afterHashing).
 */
export type DocumentDecision =
  | { render: false; file: SeenFile }
  | { render: true; why: RenderReason; detail?: string | undefined }
  | { render: "hash"; recorded: SeenFile };

/** A decision that hashing cannot change any more. */
export type SettledDecision = Exclude<DocumentDecision, { render: "hash" }>;

/** Everything the plan is made from, as plain values. */
export interface PlanState {
  /** `--force`: nothing an earlier build left is used. */
  force: boolean;
  /** What each published document was made from (the last complete build's inputs record). */
  recorded: ReadonlyMap<string, RecordedInputs>;
  /** Each service's recorded check, by service id (checkRecord.ts). */
  checks: ReadonlyMap<string, RecordedCheck>;
  /** Paths an unfinished build journaled a version for since (documentVersions.ts). */
  journaled: ReadonlySet<string>;
  /** The published files' states as observed now (fileState.observeState); absent: gone. */
  observed: ReadonlyMap<string, string>;
  /** What changed since the last build, by name: says which input a reason is about. */
  changes?: InputChanges | undefined;
}

/** A loaded service, as the plan needs it. */
export interface ServiceToPlan {
  id: string;
  fqdn: string;
  serviceIdentifier: string;
  /** What all its PI documents are made from (render/documentInputs.ts serviceInputs). */
  inputs: string;
  /** The key its check would be recorded under now (checkRecord.ts): its inputs, not the days. */
  checkKey: string;
  /** The days it is laid out for now. */
  span: LayoutSpan;
  /** Why its documents depend on the days laid out (schedule/rollCheck.ts spanDependence). */
  spanDependence?: string | undefined;
}

/** A document with what it is made from and the decision for it. */
export interface PlannedDocument {
  path: string;
  inputs: string;
  decision: DocumentDecision;
}

/**
 * A service's check: reused as recorded (same inputs, same days); rolled on (same inputs, days
 * moved on by 1 to ROLL_MAX_DAYS: the schedule stage lays out `days` only, schedule/rollCheck.ts,
 * or all of it when it finds that unsure); or laid out in full, and why.
 */
export type CheckDecision =
  | { reuse: ServiceCheck }
  | { roll: ServiceCheck; days: PlainDate[] }
  | { layOut: LayoutReason; detail?: string | undefined };

export interface ServicePlan {
  id: string;
  check: CheckDecision;
  /** Its PI documents, one per published day in order. */
  documents: (PlannedDocument & { date: PlainDate })[];
}

export interface BuildPlan {
  services: ServicePlan[];
}

/** The plan for the loaded services' checks and PI documents over the published `days`. */
export function planBuild(
  state: PlanState,
  services: readonly ServiceToPlan[],
  days: readonly PlainDate[],
): BuildPlan {
  return {
    services: services.map((service) => ({
      id: service.id,
      check: planCheck(state, service),
      documents: days.map((date) => {
        const path = programmeInformationPath(service.fqdn, service.serviceIdentifier, date);
        const inputs = programmeInformationInputs(service.inputs, date);
        const detail = () =>
          whatChanged(state, service.id) ??
          (service.spanDependence && `the days laid out moved (${service.spanDependence})`);
        return { path, date, inputs, decision: planDocument(state, path, inputs, detail) };
      }),
    })),
  };
}

function planCheck(state: PlanState, { id, checkKey, span }: ServiceToPlan): CheckDecision {
  const { force, checks } = state;
  if (force) return { layOut: "--force checks every service" };
  const recorded = checks.get(id);
  if (recorded === undefined) return { layOut: "no check recorded for it" };
  if (recorded.key !== checkKey) {
    const detail = whatChanged(state, id) ?? "the working folder is another one";
    return { layOut: "its inputs changed", detail };
  }
  const before = recorded.span;
  if (before.from === span.from && before.to === span.to) return { reuse: recorded.check };
  const moved = daysBetween(before.to, span.to);
  if (moved < 1 || moved > ROLL_MAX_DAYS || daysBetween(before.from, span.from) !== moved) {
    return { layOut: `its days moved back, or on by more than ${ROLL_MAX_DAYS} days` };
  }
  if (recorded.check.dayByDay === undefined) {
    return { layOut: "its recorded check is not split by day" };
  }
  const window = rolledWindow(before, span);
  return { roll: recorded.check, days: dateRange(window.from, window.to) };
}

/** What the plan says of a service's check, for SPI_STATIC_DEBUG=plan. */
export function describeCheck(check: CheckDecision): string {
  if ("reuse" in check) return "check reused as recorded";
  if ("roll" in check) return `check rolled on: lays out ${check.days.join(", ")}`;
  return `laid out in full: ${check.layOut}${check.detail ? `: ${check.detail}` : ""}`;
}

/** The changes since the last build that concern a service (or, without one, any). */
function whatChanged({ changes }: PlanState, service?: string): string | undefined {
  return changes && describeChanges(changes, service);
}

/**
 * The decision for one document (PI, SI or logo) made from `inputs`; `detail` says which of its
 * inputs changed when they did (by default, any change since the last build).
 */
export function planDocument(
  state: PlanState,
  path: string,
  inputs: string,
  detail: () => string | undefined = () => whatChanged(state),
): DocumentDecision {
  const { force, recorded, journaled, observed } = state;
  if (force) return { render: true, why: "--force renders every document" };
  const before = recorded.get(path);
  if (before === undefined) return { render: true, why: "no earlier build recorded it" };
  if (before.inputs !== inputs)
    return { render: true, why: "its inputs changed", detail: detail() };
  if (journaled.has(path))
    return { render: true, why: "a killed build journaled a version for it" };
  const seen = compareState(before.file, observed.get(path));
  if (seen === "same") return { render: false, file: before.file };
  if (seen === "gone") return { render: true, why: FILE_CHANGED };
  return { render: "hash", recorded: before.file };
}

const FILE_CHANGED: RenderReason = "its published file is gone or not the one the last build wrote";

/**
 * A `hash` decision once the engine read the file: `seen` is the file as it is now when its bytes
 * have the recorded digest (fileState.seeUnchanged), undefined otherwise.
 */
export function afterHashing(
  decision: DocumentDecision,
  seen: SeenFile | undefined,
): SettledDecision {
  if (decision.render !== "hash") return decision;
  return seen === undefined ? { render: true, why: FILE_CHANGED } : { render: false, file: seen };
}

/**
 * What to prune: the files an earlier build owned that this one did not publish and does not
 * keep (`--keep-going`'s broken services keep theirs).
 */
export function planPrune(
  owned: Iterable<string>,
  published: ReadonlySet<string>,
  keep: readonly string[],
): string[] {
  const kept = new Set(keep);
  return [...owned].filter((path) => !published.has(path) && !kept.has(path));
}

/** How many documents were reused and how many rendered for each reason: the plan's summary. */
export class PlanTally {
  reused = 0;
  readonly rendered = new Map<RenderReason, number>();

  count(decision: SettledDecision): void {
    if (decision.render) {
      this.rendered.set(decision.why, (this.rendered.get(decision.why) ?? 0) + 1);
    } else {
      this.reused++;
    }
  }

  /** One line, e.g. "98 reused; rendered: 19: its inputs changed". */
  describe(): string {
    const why = [...this.rendered].map(([reason, count]) => `${count}: ${reason}`);
    return `${this.reused} reused; rendered: ${why.length > 0 ? why.join("; ") : "none planned"}`;
  }
}

/**
 * The stamp as the state holds it (buildStamp.ts), not yet checked: any part may be missing or
 * of another type (a damaged or edited state.json).
 */
export interface StoredStamp {
  check?: unknown;
  timeZone?: unknown;
  today?: unknown;
  report?: unknown;
  files?: unknown;
}

/**
 * What a stamp is for: the build's inputs on its local day, with the report it repeats. A stamp
 * is checked against the fingerprint and the day worked out again from the clock, never taken
 * at its word: a stamp whose day was moved on (by hand, or a bad restore) no longer matches.
 */
export function stampCheck(
  inputs: string,
  timeZone: unknown,
  today: unknown,
  report: unknown,
): string {
  return createHash("sha256")
    .update(JSON.stringify([inputs, timeZone, today, report]))
    .digest("hex");
}

/** Everything "up to date" is decided from before the published files are looked at. */
export interface UpToDateValues {
  /** A journal was found: a build was killed or failed since the state was written. */
  unfinished: boolean;
  /** The state's damaged parts, as noted (BuildState.notes): they are to be written anew. */
  damaged: readonly string[];
  stamp: StoredStamp | undefined;
  /** This build's fingerprint (buildFingerprint.ts fingerprintOf). */
  inputs: string;
  /** Which of its inputs changed since the stamp's build, by name (inputChanges.ts). */
  changed?: string | undefined;
  /** The local day now in the stamp's time zone, worked out from the clock; undefined: none. */
  today: string | undefined;
}

/** Not up to date, and why: one sentence a reader can check. */
export interface NotUpToDate {
  upToDate: false;
  why: string;
}

/**
 * Everything but the files matches: the engine is to look at each stamped file (recorded as it
 * is here) and decide with afterLooking.
 */
export interface LookAtFiles<Report> {
  upToDate: "look";
  report: Report;
  files: ReadonlyMap<string, SeenFile>;
}

/**
 * Up to date, with `restated`: the files found the same by their bytes (new inodes after a
 * restore, or not settled when stamped) whose state as seen now is to be recorded (trusted once
 * settled, fileState.recordedState), so that no later build hashes them again.
 */
export interface UpToDate<Report> {
  upToDate: true;
  report: Report;
  files: string[];
  restated: ReadonlyMap<string, SeenFile>;
}

/**
 * Whether the last complete build's files are what this build would write: it was made from
 * the same inputs (program, data, keys) for the same local day, no build was killed or failed
 * since, no part of the state is damaged, and every file it stamped is still the one it left
 * (afterLooking). Decided before anything is loaded (that is what spares an unchanged night the
 * load), and before any published file is looked at (an edited data file or another day never
 * looks at them); the engine gathers the values and looks at the files (buildStamp.ts).
 */
export function planUpToDate<Report>(given: UpToDateValues): NotUpToDate | LookAtFiles<Report> {
  const { stamp, today } = given;
  const not = (why: string): NotUpToDate => ({ upToDate: false, why });
  if (given.unfinished) {
    return not("a build was killed or failed since the last complete one (its journal is there)");
  }
  if (given.damaged.length > 0) {
    // The damaged parts are rewritten by a build, as the notes say.
    return not(`a part of ${STATE_PATH} was damaged: ${given.damaged.join("; ")}`);
  }
  // A first build, the last one had errors, or a damaged stamp (said in the notes).
  if (stamp === undefined) return not(`${STATE_PATH} holds no stamp`);
  if (today === undefined) return not("the stamp names no time zone this runtime knows");
  if (today !== stamp.today) {
    return not(
      `another local day: the last build was for ${String(stamp.today)}, this one is for ${today}`,
    );
  }
  if (stamp.check !== stampCheck(given.inputs, stamp.timeZone, today, stamp.report)) {
    return not(
      `${given.changed ?? "the program, the data folder or the keys changed, or the stamp was altered"} ` +
        `(fingerprint ${given.inputs.slice(0, 12)})`,
    );
  }
  const files = stampedFiles(stamp.files);
  if (files.size === 0) return not(`the stamp in ${STATE_PATH} lists no files`);
  return { upToDate: "look", report: stamp.report as Report, files };
}

/**
 * The decision once the engine looked at the stamped files: `observed` has each as it is now
 * when it is the one recorded (by its state, or else by its bytes: fileState.seeUnchanged),
 * undefined (or absent) when not. `at`: when the state would be written (UTC ms).
 */
export function afterLooking<Report>(
  look: LookAtFiles<Report>,
  observed: ReadonlyMap<string, SeenFile | undefined>,
  at: number,
): NotUpToDate | UpToDate<Report> {
  const restated = new Map<string, SeenFile>();
  for (const [path, recorded] of look.files) {
    const seen = observed.get(path);
    if (seen === undefined) {
      return {
        upToDate: false,
        why: `${path} is not as the last build left it (changed, gone or replaced)`,
      };
    }
    if (recordedState(seen, at) !== recorded.state) restated.set(path, seen);
  }
  return { upToDate: true, report: look.report, files: [...look.files.keys()], restated };
}

/** The stamp's files, path → as recorded (state, "" when untrusted, and digest). */
function stampedFiles(files: unknown): Map<string, SeenFile> {
  const stamped = new Map<string, SeenFile>();
  if (typeof files !== "object" || files === null) return stamped;
  for (const [path, entry] of Object.entries(files)) {
    const [state, digest] = Array.isArray(entry) ? entry : [];
    stamped.set(path, { state: String(state ?? ""), digest: String(digest ?? "") });
  }
  return stamped;
}
