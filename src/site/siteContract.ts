import { compactDate, type PlainDate } from "../time/plainDate.js";

/**
 * The site contract: what every stage agrees on about the published site. Public paths are the
 * SPI URL layout (seed §4); the keyed SI sits outside it, and only the edge rules may serve it.
 */
export const SPI_BASE = "radiodns/spi/3.1";
export const OPEN_SI_PATH = `${SPI_BASE}/SI.xml`;
export const KEYED_SI_PATH = `_keyed/${SPI_BASE}/SI.xml`;

export function programmeInformationPath(host: string, serviceId: string, date: PlainDate): string {
  return programmeInformationPathOf(
    radiodnsKey({ fqdn: host, serviceIdentifier: serviceId }),
    compactDate(date),
  );
}

/** The same path from a service's `radiodnsKey` and a yyyyMMdd day: the edge's template. */
export function programmeInformationPathOf(key: string, day: string): string {
  return `${SPI_BASE}/id/${key}/${day}_PI.xml`;
}

/**
 * A service as the edge rules and PI paths know it, `<fqdn>/<serviceIdentifier>`: unique across
 * a provider's services, though several may share an FQDN or a serviceIdentifier.
 */
export function radiodnsKey(id: { fqdn: string; serviceIdentifier: string }): string {
  return `${id.fqdn}/${id.serviceIdentifier}`;
}

/** The FQDN of a radiodnsKey. */
export function fqdnOfKey(key: string): string {
  return key.slice(0, key.lastIndexOf("/"));
}

/**
 * PI by a DAB or FM bearer's ServiceIdentifier (`dab/4e1/4fe1/4e01/0`, TS 102 818 §10.3): a URL
 * only, answered by the edge rules from the file at `programmeInformationPath`; no file of its own.
 */
export function programmeInformationPathByBearer(
  serviceIdentifier: string,
  date: PlainDate,
): string {
  return `${SPI_BASE}/${serviceIdentifier}/${compactDate(date)}_PI.xml`;
}

/** The API serves PI for today±7 (seed §8); the edge rules enforce exactly this window. */
export const API_WINDOW_DAYS = 7;
/** Days the build publishes beyond the window on each side, so a nightly build still covers
 * the window until the next one runs (a late or missed night included). */
export const PUBLISH_MARGIN_DAYS = 1;
/** today−8 … today+8: the days a build writes a PI document for. */
export const PUBLISHED_DAYS_AROUND_TODAY = API_WINDOW_DAYS + PUBLISH_MARGIN_DAYS;

/** A rendered document (XML, or an edge file) and its path relative to the output folder. */
export interface SiteDocument {
  path: string;
  /** The file's bytes: UTF-8 text. */
  content: Buffer;
}

/**
 * A document the build can render, with a key of what it is made from: the publish stage
 * renders it only when the key or the published file differs from what the last build recorded.
 */
export interface PlannedDocument {
  path: string;
  /** A digest of everything the document's bytes depend on apart from creationTime. */
  inputs: string;
  render(): Buffer;
}
