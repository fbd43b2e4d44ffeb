import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { Provider, Service } from "../load/model/broadcaster.js";
import type { DayByDayCheck, LayoutSpan, ServiceCheck } from "../schedule/serviceCheck.js";
import type { RecordedCheck } from "./buildPlan.js";
import type { BuildState } from "./buildState.js";

/**
 * What the schedule stage found for each service, kept beside the published files so the next
 * build need not lay out a service whose inputs did not change (a one-service edit lays out one
 * service, not all of them), nor all the days of one whose days moved on (a nightly lays out
 * its new days: schedule/rollCheck.ts). An entry counts only under the same key: the program,
 * the working folder and the data folder (problems name files by both: a moved data folder
 * gives other names), the provider and the service's own files (their digests,
 * Service.sources); with it, the days it was laid out for and the check split by day. Kept in
 * the state's `checks` part (buildState.ts), written only by a build that publishes; a stale,
 * damaged or old-shaped entry (before the days were kept apart from the key) is never wrong,
 * only unused.
 */
export interface CheckRecord {
  /** Each service's recorded check by id, under the key it was made with (buildPlan.ts decides). */
  recorded: ReadonlyMap<string, RecordedCheck>;
  /** The key a service's check is recorded under now, whatever the days. */
  keyOf(provider: Provider, service: Service): string;
  /** Replaces the record with this build's checks, in the state it is written with. */
  commit(provider: Provider, span: LayoutSpan, checks: ReadonlyMap<Service, ServiceCheck>): void;
}

type RecordFile = Record<string, RecordedCheck>;

export function openCheckRecord(state: BuildState, program: string, dataDir: string): CheckRecord {
  const recorded = state.checks as Partial<Record<string, Partial<RecordedCheck>>>;
  const keyOf = (provider: Provider, service: Service) =>
    createHash("sha256")
      .update(
        [program, process.cwd(), resolve(dataDir), provider.sources, service.sources].join("\0"),
      )
      .digest("base64url");
  const entries = new Map<string, RecordedCheck>();
  for (const [id, entry] of Object.entries(recorded)) {
    const { key, span, check } = entry ?? {};
    if (
      typeof key !== "string" ||
      !isSpan(span) ||
      !Array.isArray(check?.problems) ||
      !Array.isArray(check.given)
    ) {
      continue;
    }
    const { problems, given, dayByDay } = check;
    entries.set(id, {
      key,
      span,
      check: { problems, given, dayByDay: isDayByDay(dayByDay) ? dayByDay : undefined },
    });
  }
  return {
    recorded: entries,
    keyOf,
    commit(provider, span, checks) {
      const record: RecordFile = {};
      for (const [service, check] of checks) {
        record[service.id] = { key: keyOf(provider, service), span, check };
      }
      state.checks = record;
    },
  };
}

function isSpan(value: unknown): value is LayoutSpan {
  const span = value as Partial<LayoutSpan> | null | undefined;
  return typeof span?.from === "string" && typeof span.to === "string";
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A day-by-day part as rollCheck reads it; a damaged one is dropped (the service is laid out). */
function isDayByDay(value: unknown): value is DayByDayCheck {
  if (!isObject(value) || !isSpan(value.span)) return false;
  const { load, days, majority, beyond, episodeLists } = value;
  const problems = (list: unknown) => Array.isArray(list) && list.every(isObject);
  return (
    problems(load) &&
    isObject(days) &&
    Object.values(days).every(
      (parts) => isObject(parts) && problems(parts.attach) && problems(parts.parts),
    ) &&
    isObject(majority) &&
    Object.values(majority).every(isObject) &&
    Array.isArray(beyond) &&
    beyond.every(
      (entry) =>
        Array.isArray(entry) &&
        entry.length === 2 &&
        typeof entry[0] === "string" &&
        problems(entry[1]),
    ) &&
    Array.isArray(episodeLists) &&
    episodeLists.every(
      (dates) =>
        dates === null ||
        (Array.isArray(dates) &&
          dates.length === 2 &&
          dates.every((date) => typeof date === "string")),
    )
  );
}
