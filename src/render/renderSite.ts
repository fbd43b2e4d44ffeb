import { debug } from "../debug/debugLog.js";
import { notePhase } from "../debug/memoryPhases.js";
import type { Provider, Service } from "../load/model/broadcaster.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ScheduledBroadcaster } from "../schedule/scheduleBroadcaster.js";
import { selectProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  KEYED_SI_PATH,
  OPEN_SI_PATH,
  programmeInformationPath,
  type SiteDocument,
} from "../site/siteContract.js";
import type { PlainDate } from "../time/plainDate.js";
import { ProgrammeFragments, renderProgrammeInformation } from "./renderProgrammeInformation.js";
import { renderServiceInformation } from "./renderServiceInformation.js";

/**
 * Which documents to render: per service id, the days of its PI documents (a service with none
 * is not even laid out), and which SI documents (their paths). The engine's plan decides;
 * without it, every document.
 */
export interface DocumentsToRender {
  programmeInformation: ReadonlyMap<string, readonly PlainDate[]>;
  serviceInformation: readonly string[];
}

/**
 * The render stage: the PI documents asked for, service by service and day by day, then both
 * SI documents. A generator, so the publish stage can write each document before the next is
 * rendered; a service is laid out for rendering only when one of its documents is asked for.
 * Rendering stays on the main thread: render workers (`--jobs`, issue 15) were no faster on two
 * cores and took ~100 MB more, and were removed (issue 23).
 */
export function* renderSite(
  scheduled: ScheduledBroadcaster,
  createdAt: number,
  toRender?: DocumentsToRender,
): Generator<SiteDocument> {
  const { broadcaster } = scheduled;
  const { provider } = broadcaster;
  const counts = { documents: 0, elements: 0, forEpisodes: 0, reused: 0 };
  notePhase("render starts (the check is done)");
  for (const { service, programmes } of scheduled.services) {
    const dates = toRender ? toRender.programmeInformation.get(service.id) : scheduled.dates;
    if (dates === undefined || dates.length === 0) continue;
    // One service's programme elements: its shows and episodes are its own, so none is used by
    // another service, and a build keeps one service's elements at a time (with an episode per
    // airing, holding all of them took the 100-service build to ~390 MB).
    const fragments = new ProgrammeFragments();
    const laidOut = programmes();
    for (const date of dates) {
      counts.documents++;
      yield {
        path: programmeInformationPath(
          service.radiodns.fqdn,
          service.radiodns.serviceIdentifier,
          date,
        ),
        content: renderServiceDay({
          provider,
          service,
          programmes: laidOut,
          date,
          createdAt,
          fragments,
        }),
      };
    }
    fragments.release();
    counts.elements += fragments.rendered;
    counts.forEpisodes += fragments.renderedEpisodes;
    counts.reused += fragments.reused;
  }
  debug(
    "render",
    () =>
      `${counts.documents} of ${scheduled.services.length * scheduled.dates.length} PI documents rendered; ` +
      `${counts.elements} programme elements rendered (${counts.forEpisodes} of them ` +
      `for episodes), ${counts.reused} airings filled in from one rendered before`,
  );
  // SI last: a service appears in SI only once its PI documents are in place.
  for (const [path, withStreams] of [
    [OPEN_SI_PATH, false],
    [KEYED_SI_PATH, true],
  ] as const) {
    if (toRender && !toRender.serviceInformation.includes(path)) continue;
    yield { path, content: renderServiceInformation({ broadcaster, withStreams, createdAt }) };
  }
  notePhase("render done");
}

/** The PI document of one service's day, from its laid-out programmes. */
export function renderServiceDay({
  provider,
  service,
  programmes,
  date,
  createdAt,
  fragments,
}: {
  provider: Provider;
  service: Service;
  programmes: readonly ProgrammeInstance[];
  date: PlainDate;
  createdAt: number;
  fragments: ProgrammeFragments;
}): Buffer {
  const day = selectProgrammeDay(programmes, service.timeZone, date, provider.piMarginHours);
  return renderProgrammeInformation({ provider, service, day, createdAt, fragments });
}
