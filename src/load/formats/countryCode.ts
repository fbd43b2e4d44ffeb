import { quoted } from "../text/inputProblem.js";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/**
 * Why `code` is not an ISO 3166-1 alpha-2 country code (TS 102 818 §5.12 geolocation/country),
 * or undefined. Intl knows the assigned codes; it also names codes ISO keeps for other uses,
 * which are refused: the user-assigned AA, QM–QZ, XA–XZ but XK (Kosovo), ZZ, and the "exceptionally reserved"
 * EU, EZ, UN and UK (the United Kingdom is GB).
 */
export function countryCodeProblem(code: string): string | undefined {
  if (!/^[A-Za-z]{2}$/.test(code)) {
    return `${quoted(code)} is not a country code (two letters of ISO 3166-1, e.g. CH)`;
  }
  const upper = code.toUpperCase();
  if (upper === "UK") return `${quoted(code)} is not an ISO 3166-1 code; the United Kingdom is GB`;
  const reserved = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ|EU|EZ|UN)$/.test(upper);
  if (reserved || regionNames.of(upper) === upper) {
    return `${quoted(code)} is not an ISO 3166-1 country code (e.g. CH, DE, FR)`;
  }
  return undefined;
}
