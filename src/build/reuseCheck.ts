import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import type { Service } from "../load/model/broadcaster.js";
import { sameDocument } from "../publish/sameDocument.js";
import { ProgrammeFragments } from "../render/renderProgrammeInformation.js";
import { renderServiceDay } from "../render/renderSite.js";
import { expandSchedule } from "../schedule/expandSchedule.js";
import { spanDependence } from "../schedule/rollCheck.js";
import type { ScheduledBroadcaster } from "../schedule/scheduleBroadcaster.js";
import type { LayoutSpan, ServiceCheck } from "../schedule/serviceCheck.js";
import { addDays, daysBetween, type PlainDate } from "../time/plainDate.js";

/** The reused PI document of a service that the reuse check renders again tonight. */
export type ReuseSample = { path: string; date: PlainDate };

/**
 * The build checks its own reuse: a reused document is trusted because its recorded inputs are
 * the same, and if that record ever misses an input (as when the fingerprint read the wrong
 * folder, issue 33), nothing else would notice. So each build renders one reused PI document of
 * every service again (sampleDate), laid out over its day and the day either side with the
 * episode lists that hold them (as a day-by-day check lays out its new day), and compares it
 * with the published file (sameDocument). Returns those found otherwise; the engine then renders
 * everything, as --force does. docs/maintainers/engine.md.
 */
export function checkReuse(
  outDir: string,
  createdAt: number,
  { broadcaster, services }: ScheduledBroadcaster,
  checks: ReadonlyMap<Service, ServiceCheck>,
  sampleOf: (id: string) => ReuseSample | undefined,
): string[] {
  const { provider } = broadcaster;
  const started = performance.now();
  const mismatches: string[] = [];
  let checked = 0;
  for (const { service } of services) {
    const sample = sampleOf(service.id);
    const check = checks.get(service);
    const programmes =
      sample && check && layOutAround(provider.cridAuthority, service, check, sample.date);
    if (!sample || !programmes) continue;
    const fragments = new ProgrammeFragments();
    const { path, date } = sample;
    const rendered = renderServiceDay({
      provider,
      service,
      programmes,
      date,
      createdAt,
      fragments,
    });
    fragments.release();
    checked++;
    const published = readPublished(join(outDir, path));
    if (published && !sameDocument(path, published, rendered)) {
      mismatches.push(`${path} (reused: its inputs and file as the last build recorded them)`);
    }
  }
  debug(
    "plan",
    () =>
      `reuse check: ${checked} reused PI documents rendered again, ` +
      `${mismatches.length} otherwise than published (${Math.round(performance.now() - started)} ms)`,
  );
  return mismatches;
}

/** Gone since it was planned: it is not reused after all (the publish stage writes it). */
function readPublished(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The programmes of a service's day and the day either side, from the lists that hold them;
 * undefined when a day near them is not laid out on its own (spanDependence): then the window
 * could lay out that day otherwise than the whole span does, and it is not checked tonight.
 */
function layOutAround(
  cridAuthority: string,
  service: Service,
  check: ServiceCheck,
  date: PlainDate,
) {
  const window: LayoutSpan = { from: addDays(date, -1), to: addDays(date, 1) };
  if (spanDependence(service, window) !== undefined) return undefined;
  const { from, to } = window;
  const lists = check.dayByDay?.episodeLists;
  const { episodes } = service.schedule.episodes.loadLists([], (list) => {
    const held = lists?.[list];
    return lists === undefined || (held != null && held[0] <= to && held[1] >= from);
  });
  return expandSchedule(service, cridAuthority, from, to, episodes).programmes;
}

/**
 * The date of a service's reused PI document to check tonight: the one at its turn in `dates`
 * (the published days, in order), or the next reused one after it. A document of day D sits
 * at index D − today + 7, which falls by one each night while the turn grows by one, so within
 * the 15 nights it is published, every document is checked once.
 */
export function sampleDate(
  serviceId: string,
  today: PlainDate,
  dates: readonly PlainDate[],
  reused: (date: PlainDate) => boolean,
): PlainDate | undefined {
  const turn =
    daysBetween("1970-01-01", today) + createHash("sha256").update(serviceId).digest().readUInt8(0);
  for (let i = 0; i < dates.length; i++) {
    const date = dates[(turn + i) % dates.length] as PlainDate;
    if (reused(date)) return date;
  }
  return undefined;
}
