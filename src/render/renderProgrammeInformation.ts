import type { Provider, Service, Show } from "../load/broadcaster.js";
import { imageMimeType } from "../load/imageMimeType.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ProgrammeDay } from "../schedule/selectProgrammeDay.js";
import { deriveNames } from "./deriveNames.js";
import { formatSpiDuration, formatSpiTime } from "./spiTime.js";
import {
  SPI_NAMESPACE,
  textElement,
  writeDescriptions,
  writeGenres,
  writeMultimedia,
  writeXmlDocument,
  type XmlFragment,
  XmlWriter,
} from "./spiXml.js";

export interface ProgrammeInformationInput {
  provider: Provider;
  service: Service;
  day: ProgrammeDay;
  /** The build's clock, UTC ms: the schedule's creationTime. */
  createdAt: number;
}

/** The PI document of one service for one day (TS 102 818 clause 7; seed §2.1), UTF-8. */
export function renderProgrammeInformation({
  provider,
  service,
  day,
  createdAt,
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
    for (const programme of day.programmes) writeProgramme(xml, programme, eventLocatorBearer);
    xml.up().up();
  });
}

/** epg > schedule > programme > its children. */
const PROGRAMME_CHILD_DEPTH = 3;

interface ShowFragments {
  names: XmlFragment;
  media: XmlFragment;
}

/**
 * A show's names, descriptions, images and genres are the same in every airing: they are
 * rendered once per show and replayed into each programme (most of a PI document's bytes).
 */
const showFragments = new WeakMap<Show, ShowFragments>();

function fragmentsOf(show: Show): ShowFragments {
  let fragments = showFragments.get(show);
  if (!fragments) {
    const names = deriveNames(show.name);
    fragments = {
      names: XmlWriter.fragment(PROGRAMME_CHILD_DEPTH, (xml) => {
        if (names.short) textElement(xml, "shortName", names.short);
        textElement(xml, "mediumName", names.medium);
        textElement(xml, "longName", names.long);
      }),
      media: XmlWriter.fragment(PROGRAMME_CHILD_DEPTH, (xml) => {
        writeDescriptions(xml, show.description);
        for (const image of show.images ?? []) {
          const [width, height] = image.size.split("x");
          writeMultimedia(xml, {
            url: image.url,
            mimeValue: imageMimeType(image.url),
            width,
            height,
          });
        }
        writeGenres(xml, show.genres ?? []);
      }),
    };
    showFragments.set(show, fragments);
  }
  return fragments;
}

function writeProgramme(
  xml: XmlWriter,
  programme: ProgrammeInstance,
  eventLocatorBearer: string | undefined,
) {
  const { show } = programme;
  const { names, media } = fragmentsOf(show);
  const start = formatSpiTime(programme.start);
  xml.ele("programme", { id: programme.crid, shortId: "0" });
  xml.raw(names);
  xml
    .ele("location")
    .ele("time", { time: start, duration: formatSpiDuration(programme.end - programme.start) })
    .up()
    .up();
  xml.raw(media);
  xml.ele("memberOf", { id: programme.groupCrid, shortId: "0" }).up();
  if (show.website) {
    xml.ele("link", { uri: show.website, mimeValue: "text/html", description: "Website" }).up();
  }
  if (eventLocatorBearer) {
    const stamp = start.replace(/[-:]/g, "");
    xml
      .ele("link", {
        uri: `${eventLocatorBearer};${stamp}`,
        description: "terrestrial_event_locator",
      })
      .up();
    xml.ele("link", { uri: programme.crid, description: "terrestrial_programme_crid" }).up();
  }
  xml.up();
}
