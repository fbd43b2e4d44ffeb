import type { Bearer, Broadcaster, Logo, Service } from "../load/broadcaster.js";
import { deriveNames } from "./deriveNames.js";
import {
  attributes,
  SPI_NAMESPACE,
  textElement,
  writeDescriptions,
  writeGenres,
  writeKeywords,
  writeLinks,
  writeMultimedia,
} from "./spiElements.js";
import { formatSpiTime } from "./spiTime.js";
import { writeXmlDocument, type XmlWriter } from "./xmlWriter.js";

export interface ServiceInformationInput {
  broadcaster: Broadcaster;
  /** The keyed document carries the IP stream bearers; the open one never does. */
  withStreams: boolean;
  createdAt: number;
}

/** The SI document (TS 102 818 clause 6; seed §2.2), UTF-8: the provider, then every service. */
export function renderServiceInformation({
  broadcaster,
  withStreams,
  createdAt,
}: ServiceInformationInput): Buffer {
  const { provider } = broadcaster;
  return writeXmlDocument((xml) => {
    xml.ele("serviceInformation", {
      xmlns: SPI_NAMESPACE,
      "xml:lang": provider.language,
      creationTime: formatSpiTime(createdAt),
      originator: provider.originator,
    });
    xml.ele("services");
    xml.ele("serviceProvider");
    writeNames(xml, provider.name);
    writeDescriptions(xml, provider.description);
    writeLogos(xml, provider.logos);
    writeKeywords(xml, provider.keywords);
    writeLinks(xml, provider.links);
    xml.up();
    for (const service of broadcaster.services) {
      writeService(
        xml,
        service,
        provider.radiodnsHost,
        withStreams,
        service.language === provider.language,
      );
    }
    xml.up().up();
  });
}

function writeService(
  xml: XmlWriter,
  service: Service,
  host: string,
  withStreams: boolean,
  sameLanguage: boolean,
) {
  // A service in another language marks its texts, since xml:lang is inherited from the root.
  const lang: Record<string, string> = sameLanguage ? {} : { "xml:lang": service.language };
  xml.ele("service");
  writeNames(xml, service.name, lang);
  writeDescriptions(xml, service.description);
  writeLogos(xml, service.logos);
  writeGenres(xml, service.genres);
  writeKeywords(xml, service.keywords);
  writeLinks(xml, service.links);
  for (const bearer of withStreams ? [...service.bearers, ...service.streams] : service.bearers) {
    writeBearer(xml, bearer);
  }
  xml.ele("radiodns", { fqdn: host, serviceIdentifier: service.id }).up();
  xml.up();
}

function writeNames(
  xml: XmlWriter,
  names: Parameters<typeof deriveNames>[0],
  lang: Record<string, string> = {},
) {
  const derived = deriveNames(names);
  if (derived.short) textElement(xml, "shortName", derived.short, lang);
  textElement(xml, "mediumName", derived.medium, lang);
  textElement(xml, "longName", derived.long, lang);
}

/** The square and rectangle logos are fixed-size PNGs: SPI forbids size and type attributes on them. */
function writeLogos(xml: XmlWriter, logos: readonly Logo[]) {
  for (const logo of logos) {
    if (logo.type === "logo_unrestricted") {
      writeMultimedia(xml, {
        type: logo.type,
        url: logo.url,
        mimeValue: logo.mimeValue,
        width: logo.width,
        height: logo.height,
      });
    } else {
      writeMultimedia(xml, { type: logo.type, url: logo.url });
    }
  }
}

function writeBearer(xml: XmlWriter, bearer: Bearer) {
  xml
    .ele(
      "bearer",
      attributes({
        id: bearer.id,
        cost: bearer.cost,
        offset: bearer.offset,
        mimeValue: bearer.mimeValue,
        bitrate: bearer.bitrate,
      }),
    )
    .up();
}
