import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Provider } from "../load/model/broadcaster.js";
import { sameDocument } from "../publish/sameDocument.js";
import { ProgrammeFragments } from "../render/renderProgrammeInformation.js";
import { renderServiceDay } from "../render/renderSite.js";
import { expandSchedule } from "../schedule/expandSchedule.js";
import { spanDependence } from "../schedule/rollCheck.js";
import type { CheckedService } from "../schedule/scheduleBroadcaster.js";
import type { LayoutSpan } from "../schedule/serviceCheck.js";
import { addDays, daysBetween, type PlainDate } from "../time/plainDate.js";

/**
 * The build checks its own reuse. A reused document is trusted to be what this program would
 * write because its recorded inputs (the program's fingerprint, the data files' digests, the
 * day) are the same; if that record ever misses an input (as when the fingerprint read the
 * wrong folder, issue 33), nothing else would notice. So each build renders again one reused PI
 * document of every service, and compares it with the published file (creationTime and version
 * aside: sameDocument). Which one rotates: the service's published day at index
 * (days since 1970 + a hash of its id) mod the window's 15 days, or the next reused one. A
 * document of day D sits at index D − today + 7, which falls by one each night while the turn
 * grows by one, so within the 15 nights it is published, every document is checked once.
 *
 * A service laid out in full this build is rendered from those programmes; one checked day by day
 * or as recorded is laid out over the document's day and the day either side only, as a day-by-day
 * check lays out its new day (schedule/rollCheck.ts), with the episode lists that hold them.
 * A document found otherwise than published is a warning (the build's notes) naming it; the
 * engine (buildSite.ts) then renders everything, as --force does, so that night's output is
 * right. SPI_STATIC_DEBUG=plan names the sample.
 */
export class ReuseCheck {
  /** The documents found otherwise than published: each path, and what it was reused on. */
  readonly mismatches: string[] = [];
  checked = 0;
  /** The time its layouts, renders and comparisons took, for SPI_STATIC_DEBUG=plan. */
  milliseconds = 0;

  constructor(
    private readonly outDir: string,
    private readonly createdAt: number,
  ) {}

  /** Renders the sampled document of a service just checked, and compares it. */
  checkFrom(
    provider: Provider,
    checked: CheckedService,
    sample: { path: string; date: PlainDate; why: string } | undefined,
  ): void {
    if (sample === undefined) return;
    const started = performance.now();
    try {
      this.compare(provider, checked, sample);
    } finally {
      this.milliseconds += performance.now() - started;
    }
  }

  private compare(
    provider: Provider,
    { service, check, programmes, documentDates }: CheckedService,
    sample: { path: string; date: PlainDate; why: string },
  ): void {
    const { path, date } = sample;
    const laidOut = documentDates.includes(date)
      ? programmes
      : layOutAround(provider.cridAuthority, { service, check }, date);
    if (laidOut === undefined) return;
    const fragments = new ProgrammeFragments();
    const rendered = renderServiceDay({
      provider,
      service,
      programmes: laidOut,
      date,
      createdAt: this.createdAt,
      fragments,
    });
    fragments.release();
    this.checked++;
    let published: Buffer | undefined;
    try {
      published = readFileSync(join(this.outDir, path));
    } catch {
      // Gone since it was planned: it is not reused after all (the publish stage writes it).
      return;
    }
    if (!sameDocument(path, published, rendered)) {
      this.mismatches.push(`${path} (reused: ${sample.why})`);
    }
  }
}

/**
 * The programmes of a service's day and the day either side, from the lists that hold them;
 * undefined when a day near them is not laid out on its own (spanDependence): then the window
 * could lay out that day otherwise than the whole span does, and it is not checked tonight.
 */
function layOutAround(
  cridAuthority: string,
  { service, check }: Pick<CheckedService, "service" | "check">,
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
 * (the published days, in order), or the next reused one after it.
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
