import type { Provider, Service, Show } from "../load/broadcaster.js";
import { imageMimeType } from "../load/imageMimeType.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ProgrammeDay } from "../schedule/selectProgrammeDay.js";
import { deriveNames } from "./deriveNames.js";
import { formatEventLocatorTime, formatSpiDuration, formatSpiTime } from "./spiTime.js";
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
  /** Descriptions, images, genres, memberOf and the website link, by the airings' group CRID. */
  media: Map<string, XmlFragment>;
}

/**
 * A show's names, descriptions, images, genres, group and website are the same in every airing:
 * they are rendered once per show and copied into each programme (most of a PI document's bytes).
 */
const showFragments = new WeakMap<Show, ShowFragments>();

function fragmentsOf(show: Show, groupCrid: string): { names: XmlFragment; media: XmlFragment } {
  let fragments = showFragments.get(show);
  if (!fragments) {
    const names = deriveNames(show.name);
    fragments = {
      names: XmlWriter.fragment(PROGRAMME_CHILD_DEPTH, (xml) => {
        if (names.short) textElement(xml, "shortName", names.short);
        textElement(xml, "mediumName", names.medium);
        textElement(xml, "longName", names.long);
      }),
      media: new Map(),
    };
    showFragments.set(show, fragments);
  }
  let media = fragments.media.get(groupCrid);
  if (!media) {
    media = XmlWriter.fragment(PROGRAMME_CHILD_DEPTH, (xml) => {
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
      xml.ele("memberOf", { id: groupCrid, shortId: "0" }).up();
      if (show.website) {
        xml.ele("link", { uri: show.website, mimeValue: "text/html", description: "Website" }).up();
      }
    });
    fragments.media.set(groupCrid, media);
  }
  return { names: fragments.names, media };
}

function writeProgramme(
  xml: XmlWriter,
  programme: ProgrammeInstance,
  eventLocatorBearer: string | undefined,
) {
  const { names, media } = fragmentsOf(programme.show, programme.groupCrid);
  xml.ele("programme", { id: programme.crid, shortId: "0" });
  xml.raw(names);
  xml
    .ele("location")
    .ele("time", {
      time: formatSpiTime(programme.start),
      duration: formatSpiDuration(programme.end - programme.start),
    })
    .up()
    .up();
  xml.raw(media);
  if (eventLocatorBearer) {
    xml
      .ele("link", {
        uri: `${eventLocatorBearer};${formatEventLocatorTime(programme.start)}`,
        description: "terrestrial_event_locator",
      })
      .up();
    xml.ele("link", { uri: programme.crid, description: "terrestrial_programme_crid" }).up();
  }
  xml.up();
}
