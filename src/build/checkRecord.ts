import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { Provider, Service } from "../load/broadcaster.js";
import type { LayoutSpan, ServiceCheck } from "../schedule/scheduleBroadcaster.js";
import type { RecordedCheck } from "./buildPlan.js";
import type { BuildState } from "./buildState.js";

/**
 * What the schedule stage found for each service, kept beside the published files so the next
 * build need not lay out a service whose inputs did not change (a one-service edit lays out one
 * service, not all of them). An entry counts only under the same key: the program, the working
 * folder and the data folder (problems name files by both: a moved data folder gives other
 * names), the provider, the service's own files (their
 * digests, Service.sources) and the days laid out. Kept in the state's `checks` part
 * (buildState.ts), written only by a build that publishes; a stale or damaged record is never
 * wrong, only unused.
 */
export interface CheckRecord {
  /** Each service's recorded check by id, under the key it was made with (buildPlan.ts decides). */
  recorded: ReadonlyMap<string, RecordedCheck>;
  /** The key a service's check is recorded under now. */
  keyOf(provider: Provider, service: Service, span: LayoutSpan): string;
  /** Replaces the record with this build's checks, in the state it is written with. */
  commit(provider: Provider, span: LayoutSpan, checks: ReadonlyMap<Service, ServiceCheck>): void;
}

type RecordFile = Record<string, { key: string; check: ServiceCheck }>;

export function openCheckRecord(state: BuildState, program: string, dataDir: string): CheckRecord {
  const recorded = state.checks as Partial<RecordFile>;
  const keyOf = (provider: Provider, service: Service, span: LayoutSpan) =>
    createHash("sha256")
      .update(
        [
          program,
          process.cwd(),
          resolve(dataDir),
          provider.sources,
          service.sources,
          span.from,
          span.to,
        ].join("\0"),
      )
      .digest("base64url");
  const entries = new Map<string, RecordedCheck>();
  for (const [id, entry] of Object.entries(recorded)) {
    const { key, check } = entry ?? {};
    if (typeof key === "string" && Array.isArray(check?.problems) && Array.isArray(check.given)) {
      entries.set(id, { key, check });
    }
  }
  return {
    recorded: entries,
    keyOf,
    commit(provider, span, checks) {
      const record: RecordFile = {};
      for (const [service, check] of checks) {
        record[service.id] = { key: keyOf(provider, service, span), check };
      }
      state.checks = record;
    },
  };
}
