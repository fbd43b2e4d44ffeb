import { programmeInformationInputs } from "../render/documentInputs.js";
import type { ServiceCheck } from "../schedule/scheduleBroadcaster.js";
import { programmeInformationPath } from "../site/siteContract.js";
import type { PlainDate } from "../time/plainDate.js";
import { compareState, type SeenFile } from "./fileState.js";
import type { RecordedInputs } from "./inputsRecord.js";

/**
 * The plan: what a build does again and why, decided up front from plain values (the records an
 * earlier build left, what the engine observed of the published files, the build's days) and
 * nothing else: no disk, no clock. The engine (buildSite.ts) gathers the values, asks here, and
 * carries the plan out; SPI_STATIC_DEBUG=plan prints each reason. In one sentence: a document is
 * reused (not rendered) only when the last complete build recorded the same inputs for it, no
 * unfinished build journaled a version for it since, and its published file is still the one
 * recorded; a service's check is reused when it was recorded under the same key.
 */

/** Why a document is rendered: one sentence a reader can check. */
export type RenderReason =
  | "--force renders every document"
  | "no earlier build recorded it"
  | "its inputs changed"
  | "a killed build journaled a version for it"
  | "its published file is gone or not the one the last build wrote";

/** Why a service is laid out to be checked instead of taking its recorded check. */
export type LayoutReason =
  | "--force checks every service"
  | "no check recorded for it"
  | "its files, the program, the data folder or the days changed";

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
  /** The key its check would be recorded under now (checkRecord.ts). */
  checkKey: string;
}

/** A document with what it is made from and the decision for it. */
export interface PlannedDocument {
  path: string;
  inputs: string;
  decision: DocumentDecision;
}

export interface ServicePlan {
  id: string;
  check: { reuse: ServiceCheck } | { layOut: LayoutReason };
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
  { id, checkKey }: ServiceToPlan,
): ServicePlan["check"] {
  if (force) return { layOut: "--force checks every service" };
  const recorded = checks.get(id);
  if (recorded === undefined) return { layOut: "no check recorded for it" };
  if (recorded.key !== checkKey) {
    return { layOut: "its files, the program, the data folder or the days changed" };
  }
  return { reuse: recorded.check };
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
