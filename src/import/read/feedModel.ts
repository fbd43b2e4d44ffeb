import type { PlainDate } from "../../time/plainDate.js";

/**
 * What the importer reads from SPI documents, before it becomes a data folder: the documents'
 * content, as close to the XML as is useful, with where each item came from (`origin`,
 * `file:line:col` or `url:line:col`) for the report.
 */

/** A text and the language it is in (its element's or an ancestor's xml:lang). */
export interface LocalisedText {
  text: string;
  language: string;
}

export interface FeedNames {
  short: LocalisedText[];
  medium: LocalisedText[];
  long: LocalisedText[];
}

export interface FeedDescriptions {
  short: LocalisedText[];
  long: LocalisedText[];
}

/** A `multimedia` element: a logo (SI) or a programme image (PI). */
export interface FeedImage {
  url: string;
  type: string | undefined;
  mimeValue: string | undefined;
  width: number | undefined;
  height: number | undefined;
  origin: string;
}

export interface FeedGenre {
  href: string;
  name: string | undefined;
  type: string | undefined;
  /** The label's language. */
  language: string;
}

export interface FeedLink {
  uri: string;
  description: string | undefined;
  mimeValue: string | undefined;
  language: string;
  origin: string;
}

export interface FeedBearer {
  id: string;
  cost: number | undefined;
  offset: number | undefined;
  mimeValue: string | undefined;
  bitrate: number | undefined;
  origin: string;
}

/** A geolocation: countries, and points and polygons as [latitude, longitude] pairs. */
export interface FeedGeolocation {
  countries: string[];
  points: [number, number][][];
  polygons: [number, number][][];
  origin: string;
}

/** What serviceProvider and service have in common. */
export interface FeedDescribed {
  geolocation: FeedGeolocation | undefined;
  names: FeedNames;
  descriptions: FeedDescriptions;
  images: FeedImage[];
  keywords: LocalisedText[];
  links: FeedLink[];
  origin: string;
}

export interface FeedService extends FeedDescribed {
  /** The language of the service's own texts: its names' xml:lang, else the document's. */
  language: string;
  genres: FeedGenre[];
  bearers: FeedBearer[];
  radiodns: { fqdn: string; serviceIdentifier: string } | undefined;
  /** Its serviceGroupMember ids: the groups it belongs to, as the SI names them. */
  groups: string[];
}

/** A serviceGroup (TS 102 818 §6.9): services grouped for a receiver's menus. */
export interface FeedServiceGroup extends FeedDescribed {
  id: string;
  genres: FeedGenre[];
}

export interface FeedServiceInformation {
  source: string;
  /** The document's creationTime (UTC ms), which tells the newest of several SI documents. */
  creationTime: number | undefined;
  originator: string | undefined;
  language: string;
  provider: FeedDescribed | undefined;
  services: FeedService[];
  serviceGroups: FeedServiceGroup[];
}

/** A programmeEvent: a segment placed within its programme. */
export interface FeedEvent extends FeedTextsOfProgramme {
  id: string;
  shortId: number | undefined;
  /** After the programme's start, and how long, ms. */
  offset: number;
  duration: number;
  origin: string;
}

/** What a programme and its events publish besides times. */
export interface FeedTextsOfProgramme {
  names: FeedNames;
  descriptions: FeedDescriptions;
  images: FeedImage[];
  genres: FeedGenre[];
  keywords: LocalisedText[];
  links: FeedLink[];
}

/** An onDemand: where and when an airing can be replayed. */
export interface FeedOnDemand {
  /** presentationTime, UTC ms; `start` and `end` may be absent. */
  start: number | undefined;
  end: number | undefined;
  duration: number;
  files: FeedBearer[];
  origin: string;
}

/** One airing: a programme's `time` element (a programme with two times airs twice). */
export interface FeedProgramme {
  crid: string;
  shortId: number | undefined;
  names: FeedNames;
  descriptions: FeedDescriptions;
  images: FeedImage[];
  genres: FeedGenre[];
  keywords: LocalisedText[];
  memberOf: string[];
  /** The first memberOf's shortId, when it is not 0. */
  groupShortId: number | undefined;
  links: FeedLink[];
  events: FeedEvent[];
  onDemand: FeedOnDemand[];
  /** UTC instants, ms. */
  start: number;
  end: number;
  origin: string;
}

export interface FeedProgrammeInformation {
  source: string;
  originator: string | undefined;
  language: string;
  /** The scope's start and stop (UTC ms), when given. */
  scope: { start: number; stop: number } | undefined;
  /** The scope's serviceScope ids (bearer ids): which service, where the path does not say. */
  serviceScopes: string[];
  programmes: FeedProgramme[];
}

/** A PI document and what its path or URL says about it. */
export interface LocatedProgrammeInformation {
  document: FeedProgrammeInformation;
  /** The service it belongs to: `id/<fqdn>/<serviceId>/…`, a bearer path, or the only service. */
  serviceKey: ServiceKey | undefined;
  /** The day of `<yyyyMMdd>_PI.xml`, if its name says. */
  day: PlainDate | undefined;
}

export type ServiceKey =
  | { kind: "id"; fqdn: string; serviceIdentifier: string }
  | { kind: "bearer"; bearerId: string };

/** Everything read from a feed: its SI and its PI documents. */
export interface Feed {
  serviceInformation: FeedServiceInformation;
  programmeInformation: LocatedProgrammeInformation[];
}
