import type {
  FeedBearer,
  FeedDescribed,
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
import { type XmlElement, XmlSyntaxError } from "./xmlTree.js";

/** An SI document (`serviceInformation`): the provider and its services. */
export function readServiceInformation(root: XmlElement): FeedServiceInformation {
  if (root.name !== "serviceInformation") {
    throw new XmlSyntaxError(
      `<${root.name}> is not an SI document (<serviceInformation>)`,
      root.position,
    );
  }
  // Not data: every build writes its own.
  root.attribute("creationTime");
  root.attribute("version");
  const language = root.language() ?? DEFAULT_LANGUAGE;
  const services = root.children("services");
  const provider = services.flatMap((s) => s.children("serviceProvider"))[0];
  return {
    source: root.position.source,
    originator: root.attribute("originator"),
    language,
    provider: provider ? readDescribed(provider) : undefined,
    services: services.flatMap((s) => s.children("service")).map(readService),
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
    bearers: element.children("bearer").flatMap((bearer): FeedBearer[] => {
      const id = bearer.attribute("id");
      if (id === undefined) return [];
      return [
        {
          id: id.trim(),
          cost: integerAttribute(bearer, "cost"),
          offset: integerAttribute(bearer, "offset"),
          mimeValue: bearer.attribute("mimeValue"),
          bitrate: integerAttribute(bearer, "bitrate"),
          origin: originOf(bearer.position),
        },
      ];
    }),
    radiodns:
      fqdn !== undefined && serviceIdentifier !== undefined
        ? { fqdn: fqdn.trim(), serviceIdentifier: serviceIdentifier.trim() }
        : undefined,
  };
}
