import { programmeInformationInputs } from "../render/documentInputs.js";
import { ROLL_MAX_DAYS, rolledWindow } from "../schedule/rollCheck.js";
import type { LayoutSpan, ServiceCheck } from "../schedule/scheduleBroadcaster.js";
import { programmeInformationPath } from "../site/siteContract.js";
import { dateRange, daysBetween, type PlainDate } from "../time/plainDate.js";
import { compareState, type SeenFile } from "./fileState.js";
import type { RecordedInputs } from "./inputsRecord.js";

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
  | "its files, the program or the data folder changed"
  | `its days moved back, or on by more than ${typeof ROLL_MAX_DAYS} days`
  | "its recorded check is not split by day";

/**
 * One document's decision. `hash`: its inputs are as recorded but its file's state is not (a CI
 * restore, a copy, or an edit): reused if its bytes still have the recorded digest, which only
 * the engine can read (afterHashing).
 */
export type DocumentDecision =
  | { render: false; file: SeenFile }
  | { render: true; why: RenderReason }
  | { render: "hash"; recorded: SeenFile };

/** A decision that hashing cannot change any more. */
export type SettledDecision = Exclude<DocumentDecision, { render: "hash" }>;

/** A service's check as the last build recorded it, under the key it was made with. */
export interface RecordedCheck {
  key: string;
  /** The days it was laid out for. */
  span: LayoutSpan;
  check: ServiceCheck;
}

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
  | { layOut: LayoutReason };

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
        return { path, date, inputs, decision: planDocument(state, path, inputs) };
      }),
    })),
  };
}

function planCheck(
  { force, checks }: PlanState,
  { id, checkKey, span }: ServiceToPlan,
): CheckDecision {
  if (force) return { layOut: "--force checks every service" };
  const recorded = checks.get(id);
  if (recorded === undefined) return { layOut: "no check recorded for it" };
  if (recorded.key !== checkKey)
    return { layOut: "its files, the program or the data folder changed" };
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
  return `laid out in full: ${check.layOut}`;
}

/** The decision for one document (PI, SI or logo) made from `inputs`. */
export function planDocument(state: PlanState, path: string, inputs: string): DocumentDecision {
  const { force, recorded, journaled, observed } = state;
  if (force) return { render: true, why: "--force renders every document" };
  const before = recorded.get(path);
  if (before === undefined) return { render: true, why: "no earlier build recorded it" };
  if (before.inputs !== inputs) return { render: true, why: "its inputs changed" };
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
