import type {
  FeedBearer,
  FeedDescribed,
  FeedGeolocation,
  FeedService,
  FeedServiceInformation,
} from "./feedModel.js";
import {
  DEFAULT_LANGUAGE,
  integerAttribute,
  originOf,
  readGenres,
  readKeywords,
  readLinks,
  readMediaDescriptions,
  readNames,
} from "./readSpiElements.js";
import { parseTimePoint } from "./spiTimes.js";
import { type XmlElement, XmlSyntaxError } from "./xmlTree.js";

/** An SI document (`serviceInformation`): the provider and its services. */
export function readServiceInformation(root: XmlElement): FeedServiceInformation {
  if (root.name !== "serviceInformation") {
    throw new XmlSyntaxError(
      `<${root.name}> is not an SI document (<serviceInformation>)`,
      root.position,
    );
  }
  // Not data (every build writes its own), but it tells which of several SI is the newest.
  const created = root.attribute("creationTime")?.trim() ?? "";
  root.attribute("version");
  const language = root.language() ?? DEFAULT_LANGUAGE;
  // EPG 1.x lists services by ensemble: the ensemble's own names and frequencies stay unread.
  const services = [...root.children("services"), ...root.children("ensemble")];
  const provider = services.flatMap((s) => s.children("serviceProvider"))[0];
  return {
    source: root.position.source,
    // A time without a zone is read as UTC: only to compare SI documents, never published.
    creationTime: parseTimePoint(created) ?? parseTimePoint(`${created}Z`),
    originator: root.attribute("originator"),
    language,
    provider: provider ? readDescribed(provider) : undefined,
    services: services.flatMap((s) => s.children("service")).map(readService),
    serviceGroups: root
      .children("serviceGroups")
      .flatMap((groups) => groups.children("serviceGroup"))
      .flatMap((group) => {
        const id = group.attribute("id")?.trim();
        return id ? [{ ...readDescribed(group), id, genres: readGenres(group) }] : [];
      }),
  };
}

function readDescribed(element: XmlElement): FeedDescribed {
  const names = readNames(element);
  const { descriptions, images } = readMediaDescriptions(element);
  return {
    names,
    descriptions,
    images,
    keywords: readKeywords(element),
    links: readLinks(element),
    geolocation: readGeolocation(element),
    origin: originOf(element.position),
  };
}

/** geoRSS lists of "latitude longitude" numbers, as pairs; undefined when not such a list. */
function positions(text: string): [number, number][] | undefined {
  const numbers = text.trim().split(/\s+/).map(Number);
  if (numbers.length < 2 || numbers.length % 2 !== 0 || numbers.some(Number.isNaN)) {
    return undefined;
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < numbers.length; i += 2) pairs.push([numbers[i] ?? 0, numbers[i + 1] ?? 0]);
  return pairs;
}

function readGeolocation(parent: XmlElement): FeedGeolocation | undefined {
  const element = parent.child("geolocation");
  if (!element) return undefined;
  const read = (name: string) =>
    element.children(name).flatMap((child) => {
      const pairs = positions(child.text());
      return pairs ? [pairs] : [];
    });
  return {
    countries: element.children("country").map((c) => c.text()),
    points: read("point"),
    polygons: read("polygon"),
    origin: originOf(element.position),
  };
}

function readService(element: XmlElement): FeedService {
  element.attribute("version");
  const described = readDescribed(element);
  const firstName = [
    ...described.names.short,
    ...described.names.medium,
    ...described.names.long,
  ][0];
  const radiodns = element.child("radiodns");
  const fqdn = radiodns?.attribute("fqdn");
  const serviceIdentifier = radiodns?.attribute("serviceIdentifier");
  return {
    ...described,
    language: firstName?.language ?? element.language() ?? DEFAULT_LANGUAGE,
    genres: readGenres(element),
    bearers: [...element.children("bearer"), ...element.children("serviceID")].flatMap(
      (bearer): FeedBearer[] => {
        const id = bearer.attribute("id");
        if (id === undefined) return [];
        return [
          {
            id: bearer.name === "serviceID" ? dabIdOfEpg1(id.trim()) : id.trim(),
            cost: integerAttribute(bearer, "cost"),
            offset: integerAttribute(bearer, "offset"),
            mimeValue: bearer.attribute("mimeValue"),
            bitrate: integerAttribute(bearer, "bitrate"),
            origin: originOf(bearer.position),
          },
        ];
      },
    ),
    radiodns:
      fqdn !== undefined && serviceIdentifier !== undefined
        ? { fqdn: fqdn.trim(), serviceIdentifier: serviceIdentifier.trim() }
        : undefined,
    groups: element
      .children("serviceGroupMember")
      .flatMap((member) => member.attribute("id")?.trim() || []),
  };
}

/**
 * EPG 1.x's serviceID (`e1.c181.c2a1.0`: ECC, EId, SId, SCIdS) as an SPI 3.1 DAB bearer id
 * (`dab:ce1.c181.c2a1.0`): the GCC is the SId's country id followed by the ECC.
 */
export function dabIdOfEpg1(id: string): string {
  const parts = /^([0-9a-f]{2})\.([0-9a-f]{4})\.([0-9a-f]{4}|[0-9a-f]{8})\.([0-9a-f])$/i.exec(id);
  if (!parts) return id;
  const [, ecc = "", eid, sid = "", scids] = parts;
  const countryId = sid.length === 8 ? sid[2] : sid[0];
  return `dab:${countryId}${ecc}.${eid}.${sid}.${scids}`.toLowerCase();
}
