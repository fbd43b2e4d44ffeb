import { sameLanguage } from "../load/formats/languageTag.js";
import type {
  Bearer,
  Broadcaster,
  Logo,
  Provider,
  Service,
  ServiceGroup,
} from "../load/model/broadcaster.js";
import {
  attributes,
  SPI_NAMESPACE,
  writeDescriptions,
  writeGenres,
  writeGeolocation,
  writeKeywords,
  writeLinks,
  writeMultimedia,
  writeNames,
} from "./spiElements.js";
import { formatSpiTime } from "./spiTime.js";
import { textVersions } from "./textVersions.js";
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
    const texts = textVersions(provider, provider.language, provider.language);
    writeNames(xml, texts);
    writeDescriptions(xml, texts);
    writeLogos(xml, provider.logos);
    writeKeywords(xml, texts);
    writeLinks(xml, texts);
    writeGeolocation(xml, provider.geolocation);
    xml.up();
    for (const service of broadcaster.services) {
      writeService(xml, service, provider, withStreams);
    }
    xml.up();
    if (provider.serviceGroups.length > 0) {
      xml.ele("serviceGroups");
      for (const group of provider.serviceGroups) writeServiceGroup(xml, group, provider.language);
      xml.up();
    }
    xml.up();
  });
}

/** A group's texts are in the provider's language, the document's. */
function writeServiceGroup(xml: XmlWriter, group: ServiceGroup, language: string) {
  const texts = textVersions(group, language, language);
  xml.ele("serviceGroup", { id: group.id });
  writeNames(xml, texts);
  writeDescriptions(xml, texts);
  writeLogos(xml, group.logos);
  writeGenres(xml, group.genres);
  writeKeywords(xml, texts);
  writeLinks(xml, texts);
  writeGeolocation(xml, group.geolocation);
  xml.up();
}

function writeService(xml: XmlWriter, service: Service, provider: Provider, withStreams: boolean) {
  // A service in another language than the document's tags each of its own texts, since
  // xml:lang is otherwise inherited from the root.
  const texts = textVersions(service, service.language, provider.language);
  xml.ele("service");
  writeNames(xml, texts);
  writeDescriptions(xml, texts);
  writeLogos(xml, service.logos);
  writeGenres(
    xml,
    service.genres,
    sameLanguage(service.language, provider.language) ? {} : { "xml:lang": service.language },
  );
  writeKeywords(xml, texts);
  writeLinks(xml, texts);
  for (const bearer of withStreams ? [...service.bearers, ...service.streams] : service.bearers) {
    writeBearer(xml, bearer);
  }
  const { fqdn, serviceIdentifier } = service.radiodns;
  xml.ele("radiodns", { fqdn, serviceIdentifier }).up();
  writeGeolocation(xml, service.geolocation);
  for (const id of service.groups) xml.ele("serviceGroupMember", { id }).up();
  xml.up();
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
