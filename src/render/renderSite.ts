import { debug } from "../debug/debugLog.js";
import type { ScheduledBroadcaster } from "../schedule/scheduleBroadcaster.js";
import { selectProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  KEYED_SI_PATH,
  OPEN_SI_PATH,
  programmeInformationPath,
  type SiteDocument,
} from "../site/siteContract.js";
import { ProgrammeFragments, renderProgrammeInformation } from "./renderProgrammeInformation.js";
import { renderServiceInformation } from "./renderServiceInformation.js";

/**
 * The render stage: one PI document per service and published day, then both SI documents.
 * A generator, so the publish stage can write each document before the next is rendered.
 */
export function* renderSite(
  scheduled: ScheduledBroadcaster,
  createdAt: number,
): Generator<SiteDocument> {
  const { broadcaster } = scheduled;
  const { provider } = broadcaster;
  const fragments = new ProgrammeFragments();
  for (const scheduledService of scheduled.services) {
    const { service } = scheduledService;
    const programmes = scheduledService.programmes();
    for (const date of scheduled.dates) {
      const day = selectProgrammeDay(programmes, service.timeZone, date, provider.piMarginHours);
      yield {
        path: programmeInformationPath(provider.radiodnsHost, service.id, date),
        content: renderProgrammeInformation({ provider, service, day, createdAt, fragments }),
      };
    }
  }
  debug(
    "render",
    () =>
      `${fragments.rendered} programme elements rendered (${fragments.renderedEpisodes} of them ` +
      `for episodes), ${fragments.reused} airings filled in from one rendered before`,
  );
  // SI last: a service appears in SI only once its PI documents are in place.
  yield {
    path: OPEN_SI_PATH,
    content: renderServiceInformation({ broadcaster, withStreams: false, createdAt }),
  };
  yield {
    path: KEYED_SI_PATH,
    content: renderServiceInformation({ broadcaster, withStreams: true, createdAt }),
  };
}
