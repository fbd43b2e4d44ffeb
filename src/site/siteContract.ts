import { compactDate, type PlainDate } from "../time/plainDate.js";

/**
 * Where each document lives in the output folder. Public paths are the SPI URL layout (seed §4);
 * the keyed SI sits outside it, and only the edge rules may serve it.
 */
export const SPI_BASE = "radiodns/spi/3.1";
export const OPEN_SI_PATH = `${SPI_BASE}/SI.xml`;
export const KEYED_SI_PATH = `_keyed/${SPI_BASE}/SI.xml`;

export function programmeInformationPath(host: string, serviceId: string, date: PlainDate): string {
  return `${SPI_BASE}/id/${host}/${serviceId}/${compactDate(date)}_PI.xml`;
}

/**
 * The build's own bookkeeping (manifest, journal, lock). Not part of the API: the edge rules
 * answer 404 for it like for any other unknown path, and it holds nothing secret.
 */
export const STATE_DIR = "_spi-static";
export const MANIFEST_PATH = `${STATE_DIR}/manifest.json`;
export const JOURNAL_PATH = `${STATE_DIR}/journal`;
export const LOCK_PATH = `${STATE_DIR}/build.lock`;
export const STAMP_PATH = `${STATE_DIR}/stamp.json`;
