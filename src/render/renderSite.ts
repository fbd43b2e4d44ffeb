import { debug } from "../debug/debugLog.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ScheduledBroadcaster, ScheduledService } from "../schedule/scheduleBroadcaster.js";
import { selectProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  KEYED_SI_PATH,
  OPEN_SI_PATH,
  type PlannedDocument,
  programmeInformationPath,
} from "../site/siteContract.js";
import type { SiteInputs } from "./documentInputs.js";
import { ProgrammeFragments, renderProgrammeInformation } from "./renderProgrammeInformation.js";
import { renderServiceInformation } from "./renderServiceInformation.js";

/**
 * The render stage: one PI document per service and published day, then both SI documents,
 * each rendered only when the publish stage asks (its inputs changed, or its file did). A
 * generator, so the publish stage can write each document before the next is planned; a
 * service is laid out for rendering only when one of its documents is rendered.
 */
export function* planSite(
  scheduled: ScheduledBroadcaster,
  createdAt: number,
  inputs: SiteInputs,
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
      yield {
        path: programmeInformationPath(provider.radiodnsHost, service.id, date),
        inputs: inputs.programmeInformation(service, date),
        render() {
          counts.documents++;
          const day = selectProgrammeDay(layout(), service.timeZone, date, provider.piMarginHours);
          const before = { ...fragments };
          const document = renderProgrammeInformation({
            provider,
            service,
            day,
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

/** The service's programmes, laid out at the first call and kept for its other documents. */
function layoutOnDemand(scheduled: ScheduledService): () => ProgrammeInstance[] {
  let programmes: ProgrammeInstance[] | undefined;
  return () => {
    programmes ??= scheduled.programmes();
    return programmes;
  };
}
