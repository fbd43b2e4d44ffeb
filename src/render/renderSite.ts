import { debug } from "../debug/debugLog.js";
import type { Provider, Service } from "../load/broadcaster.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ScheduledBroadcaster, ScheduledService } from "../schedule/scheduleBroadcaster.js";
import { selectProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  KEYED_SI_PATH,
  OPEN_SI_PATH,
  type PlannedDocument,
  programmeInformationPath,
} from "../site/siteContract.js";
import type { PlainDate } from "../time/plainDate.js";
import type { SiteInputs } from "./documentInputs.js";
import { ProgrammeFragments, renderProgrammeInformation } from "./renderProgrammeInformation.js";
import { renderServiceInformation } from "./renderServiceInformation.js";

/**
 * PI documents rendered before the render stage was asked for them, with the bytes this stage
 * would make. The engine provides it (build/renderAhead.ts renders them from the schedule
 * stage's check); the render stage only takes.
 */
export interface RenderedAhead {
  /** The document at `path` if it was rendered ahead from exactly these inputs. */
  take(path: string, inputs: string): Buffer | undefined;
  /** How many were rendered ahead and how many taken, for SPI_STATIC_DEBUG=render. */
  readonly rendered: number;
  readonly taken: number;
}

export interface RenderOptions {
  /** Documents already rendered, taken instead of rendering them again. */
  ahead?: RenderedAhead | undefined;
}

/**
 * The render stage: one PI document per service and published day, then both SI documents,
 * each rendered only when the publish stage asks (its inputs changed, or its file did). A
 * generator, so the publish stage can write each document before the next is planned; a
 * service is laid out for rendering only when one of its documents is rendered.
 * Rendering stays on the main thread: render workers (`--jobs`, issue 15) were no faster on two
 * cores and took ~100 MB more, and were removed (issue 23).
 */
export function* planSite(
  scheduled: ScheduledBroadcaster,
  createdAt: number,
  inputs: SiteInputs,
  { ahead }: RenderOptions = {},
): Generator<PlannedDocument> {
  const { broadcaster } = scheduled;
  const { provider } = broadcaster;
  const counts = { documents: 0, elements: 0, forEpisodes: 0, reused: 0 };
  for (const scheduledService of scheduled.services) {
    const { service } = scheduledService;
    const layout = layoutOnDemand(scheduledService);
    // One service's programme elements: its shows and episodes are its own, so none is used by
    // another service, and a build keeps one service's elements at a time (with an episode per
    // airing, holding all of them took the 100-service build to ~390 MB).
    const fragments = new ProgrammeFragments();
    for (const date of scheduled.dates) {
      const path = programmeInformationPath(
        service.radiodns.fqdn,
        service.radiodns.serviceIdentifier,
        date,
      );
      const documentInputs = inputs.programmeInformation(service, date);
      yield {
        path,
        inputs: documentInputs,
        render() {
          counts.documents++;
          const rendered = ahead?.take(path, documentInputs);
          if (rendered) return rendered;
          const before = { ...fragments };
          const document = renderServiceDay({
            provider,
            service,
            programmes: layout(),
            date,
            createdAt,
            fragments,
          });
          counts.elements += fragments.rendered - before.rendered;
          counts.forEpisodes += fragments.renderedEpisodes - before.renderedEpisodes;
          counts.reused += fragments.reused - before.reused;
          return document;
        },
      };
    }
  }
  debug(
    "render",
    () =>
      `${counts.documents} of ${scheduled.services.length * scheduled.dates.length} PI documents rendered; ` +
      `${counts.elements} programme elements rendered (${counts.forEpisodes} of them ` +
      `for episodes), ${counts.reused} airings filled in from one rendered before`,
  );
  if (ahead) {
    debug(
      "render",
      () =>
        `${ahead.taken} PI documents taken as rendered ahead during the check ` +
        `(${ahead.rendered} rendered ahead)`,
    );
  }
  // SI last: a service appears in SI only once its PI documents are in place.
  yield {
    path: OPEN_SI_PATH,
    inputs: inputs.serviceInformation,
    render: () => renderServiceInformation({ broadcaster, withStreams: false, createdAt }),
  };
  yield {
    path: KEYED_SI_PATH,
    inputs: inputs.serviceInformation,
    render: () => renderServiceInformation({ broadcaster, withStreams: true, createdAt }),
  };
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

/** The service's programmes, laid out at the first call and kept for its other documents. */
function layoutOnDemand(scheduled: ScheduledService): () => ProgrammeInstance[] {
  let programmes: ProgrammeInstance[] | undefined;
  return () => {
    programmes ??= scheduled.programmes();
    return programmes;
  };
}
