/** Programmes of services on one grid start at the same instants, day after day. */
const spiTimes = new Map<number, string>();
const SPI_TIME_CACHE_LIMIT = 100_000;

/** xs:dateTime in UTC without fractional seconds: `2026-11-23T05:00:00Z`. */
export function formatSpiTime(instant: number): string {
  let text = spiTimes.get(instant);
  if (text === undefined) {
    if (spiTimes.size > SPI_TIME_CACHE_LIMIT) spiTimes.clear();
    text = `${new Date(instant).toISOString().slice(0, 19)}Z`;
    spiTimes.set(instant, text);
  }
  return text;
}

/** xs:duration as SPI wants it: `PT1H30M`, `PT45M`, `PT2H45M30S`, never fractional. */
export function formatSpiDuration(milliseconds: number): string {
  const total = Math.round(milliseconds / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts = `${hours ? `${hours}H` : ""}${minutes ? `${minutes}M` : ""}${seconds ? `${seconds}S` : ""}`;
  return `PT${parts || "0S"}`;
}
