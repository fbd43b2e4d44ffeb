import { didYouMean } from "./closestName.js";

/**
 * Why `zone` cannot be used as an IANA time zone, or undefined when it can. Intl decides (it is
 * what resolves the offsets later); its list of canonical zones supplies the "did you mean".
 */
export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return undefined;
  } catch {
    const hint = didYouMean(zone, Intl.supportedValuesOf("timeZone"));
    return `"${zone}" is not an IANA time zone (e.g. Europe/Zurich)${hint}`;
  }
}
