import type { Provider, Service } from "../load/broadcaster.js";
import { imageMimeType } from "../load/imageMimeType.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ProgrammeDay } from "../schedule/selectProgrammeDay.js";
import { deriveNames } from "./deriveNames.js";
import { formatSpiDuration, formatSpiTime } from "./spiTime.js";
import {
  attributes,
  SPI_NAMESPACE,
  textElement,
  writeDescriptions,
  writeGenres,
  writeMultimedia,
  writeXmlDocument,
  type XmlWriter,
} from "./spiXml.js";

export interface ProgrammeInformationInput {
  provider: Provider;
  service: Service;
  day: ProgrammeDay;
  /** The build's clock, UTC ms: the schedule's creationTime. */
  createdAt: number;
}

/** The PI document of one service for one day (TS 102 818 clause 7; seed §2.1). */
export function renderProgrammeInformation({
  provider,
  service,
  day,
  createdAt,
}: ProgrammeInformationInput): string {
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

function writeProgramme(
  xml: XmlWriter,
  programme: ProgrammeInstance,
  eventLocatorBearer: string | undefined,
) {
  const { show } = programme;
  const names = deriveNames(show.name);
  xml.ele("programme", { id: programme.crid, shortId: "0" });
  if (names.short) textElement(xml, "shortName", names.short);
  textElement(xml, "mediumName", names.medium);
  textElement(xml, "longName", names.long);
  xml
    .ele("location")
    .ele("time", {
      time: formatSpiTime(programme.start),
      duration: formatSpiDuration(programme.end - programme.start),
    })
    .up()
    .up();
  writeDescriptions(xml, show.description);
  for (const image of show.images ?? []) {
    const [width, height] = image.size.split("x");
    writeMultimedia(xml, { url: image.url, mimeValue: imageMimeType(image.url), width, height });
  }
  writeGenres(xml, show.genres ?? []);
  xml.ele("memberOf", { id: programme.groupCrid, shortId: "0" }).up();
  if (show.website) {
    xml.ele("link", { uri: show.website, mimeValue: "text/html", description: "Website" }).up();
  }
  if (eventLocatorBearer) {
    const stamp = formatSpiTime(programme.start).replace(/[-:]/g, "");
    xml
      .ele(
        "link",
        attributes({
          uri: `${eventLocatorBearer};${stamp}`,
          description: "terrestrial_event_locator",
        }),
      )
      .up();
    xml.ele("link", { uri: programme.crid, description: "terrestrial_programme_crid" }).up();
  }
  xml.up();
}
