import { boundedMemo } from "../memo/boundedMemo.js";

// Programmes of services on one grid start at the same instants and last the same times, day
// after day: each text is made once and then looked up.

/** xs:dateTime in UTC without fractional seconds: `2026-11-23T05:00:00Z`. */
export const formatSpiTime = boundedMemo(
  (instant: number) => `${new Date(instant).toISOString().slice(0, 19)}Z`,
);

/** xs:duration as SPI wants it: `PT1H30M`, `PT45M`, `PT2H45M30S`, never fractional. */
export const formatSpiDuration = boundedMemo((milliseconds: number) => {
  const total = Math.round(milliseconds / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts = `${hours ? `${hours}H` : ""}${minutes ? `${minutes}M` : ""}${seconds ? `${seconds}S` : ""}`;
  return `PT${parts || "0S"}`;
});
