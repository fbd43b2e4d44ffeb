import { didYouMean } from "../text/closestName.js";
import { quoteValue } from "../text/inputProblem.js";

/**
 * Why `zone` cannot be used as an IANA time zone, or undefined when it can. Intl decides (it is
 * what resolves the offsets later); its list of canonical zones supplies the "did you mean".
 */
export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return undefined;
  } catch {
    const zones = Intl.supportedValuesOf("timeZone");
    // A city alone (Zurich, new york) is the last part of one zone name.
    const city = zone.trim().toLowerCase().replaceAll(" ", "_");
    const byCity = zones.find((known) => known.toLowerCase().split("/").at(-1) === city);
    const hint = byCity ? `; did you mean "${byCity}"?` : didYouMean(zone, zones);
    return `${quoteValue(zone)} is not an IANA time zone (e.g. Europe/Zurich)${hint}`;
  }
}
