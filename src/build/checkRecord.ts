import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { Provider, Service } from "../load/model/broadcaster.js";
import type { LayoutSpan, ServiceCheck } from "../schedule/serviceCheck.js";
import type { BuildState } from "./buildState.js";
import type { RecordedCheck } from "./stateParts.js";

/**
 * What the schedule stage found for each service, kept beside the published files so the next
 * build need not lay out a service whose inputs did not change (a one-service edit lays out one
 * service, not all of them), nor all the days of one whose days moved on (a nightly lays out
 * its new days: schedule/rollCheck.ts). An entry counts only under the same key: the program,
 * the working folder and the data folder (problems name files by both: a moved data folder
 * gives other names), the provider and the service's own files (their digests,
 * Service.sources); with it, the days it was laid out for and the check split by day. Kept in
 * the state's `checks` part (stateParts.ts checks its shape), written only by a build that
 * publishes; a stale entry is never wrong, only unused, and a damaged part is dropped whole.
 */
export interface CheckRecord {
  /** Each service's recorded check by id, under the key it was made with (buildPlan.ts decides). */
  recorded: ReadonlyMap<string, RecordedCheck>;
  /** The key a service's check is recorded under now, whatever the days. */
  keyOf(provider: Provider, service: Service): string;
  /** Replaces the record with this build's checks, in the state it is written with. */
  commit(provider: Provider, span: LayoutSpan, checks: ReadonlyMap<Service, ServiceCheck>): void;
}

export function openCheckRecord(state: BuildState, program: string, dataDir: string): CheckRecord {
  const keyOf = (provider: Provider, service: Service) =>
    createHash("sha256")
      .update(
        [program, process.cwd(), resolve(dataDir), provider.sources, service.sources].join("\0"),
      )
      .digest("base64url");
  // A recorded error is never reported as recorded: its service is checked again, so an error
  // only ever stops a build because today's data has it (an edited or restored state cannot).
  const entries = new Map(Object.entries(state.checks).filter(([, { check }]) => !hasError(check)));
  return {
    recorded: entries,
    keyOf,
    commit(provider, span, checks) {
      const record: BuildState["checks"] = {};
      for (const [service, check] of checks) {
        record[service.id] = { key: keyOf(provider, service), span, check };
      }
      state.checks = record;
    },
  };
}

/**
 * Whether the check reports an error, or holds one a roll would report as found. The days
 * beyond the span are left out: what they find is reported as a warning (schedule/rollCheck.ts).
 */
function hasError({ problems, dayByDay }: ServiceCheck): boolean {
  const days = Object.values(dayByDay?.days ?? {}).flatMap(({ attach, parts }) => [
    ...attach,
    ...parts,
  ]);
  return [
    ...problems,
    ...(dayByDay?.load ?? []),
    ...days,
    ...Object.values(dayByDay?.majority ?? {}),
  ].some(({ severity }) => severity === "error");
}
