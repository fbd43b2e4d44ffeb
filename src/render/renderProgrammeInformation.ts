import type { Provider, Service, Show } from "../load/broadcaster.js";
import { imageMimeType } from "../load/mediaType.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  attributes,
  SPI_NAMESPACE,
  writeDescriptions,
  writeGenres,
  writeKeywords,
  writeLinks,
  writeMultimedia,
  writeNames,
} from "./spiElements.js";
import { formatEventLocatorTime, formatSpiDuration, formatSpiTime } from "./spiTime.js";
import { textVersions } from "./textVersions.js";
import { websiteLabel } from "./websiteLabel.js";
import { slot, writeXmlDocument, type XmlFragment, XmlWriter } from "./xmlWriter.js";

export interface ProgrammeInformationInput {
  provider: Provider;
  service: Service;
  day: ProgrammeDay;
  /** The build's clock, UTC ms: the schedule's creationTime. */
  createdAt: number;
  /** The build's programme elements, kept from one document to the next. */
  fragments?: ProgrammeFragments;
}

/** The PI document of one service for one day (TS 102 818 clause 7; seed §2.1), UTF-8. */
export function renderProgrammeInformation({
  provider,
  service,
  day,
  createdAt,
  fragments = new ProgrammeFragments(),
}: ProgrammeInformationInput): Buffer {
  return writeXmlDocument((xml) => {
    xml.ele("epg", { xmlns: SPI_NAMESPACE, "xml:lang": service.language });
    xml.ele("schedule", {
      creationTime: formatSpiTime(createdAt),
      originator: provider.originator,
      "xml:lang": service.language,
    });
    xml
      .ele("scope", {
        startTime: formatSpiTime(day.scopeStart),
        stopTime: formatSpiTime(day.scopeEnd),
      })
      .up();
    const eventLocatorBearer = service.bearers[0]?.id;
    for (const programme of day.programmes) {
      writeAiring(xml, fragments, programme, service.language, eventLocatorBearer);
    }
    xml.up().up();
  });
}

/** epg > schedule > programme. */
const PROGRAMME_DEPTH = 2;

/** What each airing fills into its show's programme element. */
type AiringSlot = "crid" | "time" | "duration" | "eventLocator";

interface ProgrammeFragment {
  groupCrid: string;
  language: string;
  withEventLocator: boolean;
  fragment: XmlFragment<AiringSlot>;
}

/**
 * A show's programme element is the same in every airing but for its CRID, time, duration and
 * event locator: one build renders it once per show (and group, and with or without event
 * locators) and fills it in for each airing. Its names, descriptions, images and genres are
 * most of a PI document's bytes. Kept for one build only (renderSite makes one per build), so a
 * rebuild after an edit never reuses an element of the old data.
 */
export class ProgrammeFragments {
  private readonly byShow = new Map<Show, ProgrammeFragment[]>();
  /** Programme elements rendered, and airings filled in from one rendered before. */
  rendered = 0;
  reused = 0;

  of(
    show: Show,
    groupCrid: string,
    language: string,
    withEventLocator: boolean,
  ): XmlFragment<AiringSlot> {
    let known = this.byShow.get(show);
    if (!known) {
      known = [];
      this.byShow.set(show, known);
    }
    // Nearly always one entry: a show has one group, and a service has event locators or not.
    for (const entry of known) {
      if (
        entry.groupCrid === groupCrid &&
        entry.language === language &&
        entry.withEventLocator === withEventLocator
      ) {
        this.reused++;
        return entry.fragment;
      }
    }
    const fragment = XmlWriter.fragment<AiringSlot>(PROGRAMME_DEPTH, (xml) =>
      writeProgramme(xml, show, groupCrid, language, withEventLocator),
    );
    known.push({ groupCrid, language, withEventLocator, fragment });
    this.rendered++;
    return fragment;
  }
}

/** `language` is the service's: the PI document's and that of the show's own texts. */
function writeProgramme(
  xml: XmlWriter,
  show: Show,
  groupCrid: string,
  language: string,
  withEventLocator: boolean,
) {
  xml.ele("programme", { id: slot("crid"), shortId: "0" });
  const texts = textVersions(show, language, language);
  writeNames(xml, texts);
  xml
    .ele("location")
    .ele("time", { time: slot("time"), duration: slot("duration") })
    .up()
    .up();
  writeDescriptions(xml, texts);
  for (const image of show.images ?? []) {
    const [width, height] = image.size.split("x");
    writeMultimedia(xml, {
      url: image.url,
      mimeValue: image.mimeValue ?? imageMimeType(image.url),
      width,
      height,
    });
  }
  writeGenres(xml, show.genres ?? []);
  writeKeywords(xml, texts);
  xml.ele("memberOf", { id: groupCrid, shortId: "0" }).up();
  if (show.website) {
    const description = websiteLabel(language);
    xml.ele("link", attributes({ uri: show.website, mimeValue: "text/html", description })).up();
  }
  writeLinks(xml, texts);
  if (withEventLocator) {
    xml.ele("link", { uri: slot("eventLocator"), description: "terrestrial_event_locator" }).up();
    xml.ele("link", { uri: slot("crid"), description: "terrestrial_programme_crid" }).up();
  }
  xml.up();
}

function writeAiring(
  xml: XmlWriter,
  fragments: ProgrammeFragments,
  programme: ProgrammeInstance,
  language: string,
  eventLocatorBearer: string | undefined,
) {
  const { show, groupCrid, crid, start, end } = programme;
  const withEventLocator = Boolean(eventLocatorBearer);
  xml.insert(fragments.of(show, groupCrid, language, withEventLocator), {
    crid,
    time: formatSpiTime(start),
    duration: formatSpiDuration(end - start),
    // Filled only where the fragment has the slot: services with a broadcast bearer.
    eventLocator: withEventLocator ? `${eventLocatorBearer};${formatEventLocatorTime(start)}` : "",
  });
}
