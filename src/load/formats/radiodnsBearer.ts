/**
 * A DAB or FM bearer as RadioDNS sees it (ETSI TS 103 270): the lookup names a receiver builds
 * from what it tunes to, and the ServiceIdentifier it puts into PI paths (TS 102 818 §10.3).
 * Every value is lower-case hexadecimal of fixed width, as the bearer id in our data already is;
 * paths are case-sensitive (TS 102 818 §10.5.1), so no other spelling names the same bearer.
 */
export type BroadcastBearer =
  | { system: "dab"; gcc: string; eid: string; sid: string; scids: string }
  | { system: "fm"; gcc: string; pi: string; frequency: string }
  | { system: "hd"; cc: string; tx: string }
  | { system: "drm"; sid: string }
  | { system: "amss"; sid: string };

/** The root of every RadioDNS lookup name. */
const RADIODNS_ROOT = "radiodns.org";

const DAB = /^dab:([0-9a-f]{3})\.([0-9a-f]{4})\.([0-9a-f]{4}|[0-9a-f]{8})\.([0-9a-f])$/;
const FM = /^fm:([0-9a-f]{3})\.([0-9a-f]{4})\.(\d{5})$/;
/** HD Radio: country code and transmitter id (`hd:292.0ea31`, TS 102 818 V3.5.1 §5.12 example 4). */
const HD = /^hd:([0-9a-f]{3})\.([0-9a-f]{5})$/;
/** DRM and AMSS: the 24-bit service id (`drm:e1c238`, TS 102 818 V3.5.1 §9.2.2.3). */
const DRM_OR_AMSS = /^(drm|amss):([0-9a-f]{6})$/;

/**
 * `dab:4e1.4fe1.4e01.0`, `fm:4e1.4e02.10170`, `hd:292.0ea31`, `drm:e1c238` or `amss:e1c238`;
 * undefined for anything else (streams).
 */
export function parseBroadcastBearer(id: string): BroadcastBearer | undefined {
  const dab = DAB.exec(id);
  if (dab) {
    const [, gcc, eid, sid, scids] = dab as unknown as [string, string, string, string, string];
    return { system: "dab", gcc, eid, sid, scids };
  }
  const fm = FM.exec(id);
  if (fm) {
    const [, gcc, pi, frequency] = fm as unknown as [string, string, string, string];
    return { system: "fm", gcc, pi, frequency };
  }
  const hd = HD.exec(id);
  if (hd) {
    const [, cc, tx] = hd as unknown as [string, string, string];
    return { system: "hd", cc, tx };
  }
  const drmOrAmss = DRM_OR_AMSS.exec(id);
  if (drmOrAmss) {
    const [, system, sid] = drmOrAmss as unknown as [string, "drm" | "amss", string];
    return system === "drm" ? { system, sid } : { system, sid };
  }
  return undefined;
}

/**
 * The bearer's parameters in ServiceIdentifier order. FM has a second spelling: receivers that
 * get no ECC from RDS may use the ISO 3166 country code of where they are instead of the GCC.
 */
function parameterSets(bearer: BroadcastBearer, fmCountry: string | undefined): string[][] {
  if (bearer.system === "dab") return [[bearer.gcc, bearer.eid, bearer.sid, bearer.scids]];
  if (bearer.system === "hd") return [[bearer.cc, bearer.tx]];
  if (bearer.system === "drm" || bearer.system === "amss") return [[bearer.sid]];
  const sets = [[bearer.gcc, bearer.pi, bearer.frequency]];
  if (fmCountry !== undefined) sets.push([fmCountry, bearer.pi, bearer.frequency]);
  return sets;
}

/** `dab/4e1/4fe1/4e01/0`, `fm/4e1/4e02/10170` (and `fm/ch/4e02/10170` with a country). */
export function serviceIdentifiersOf(bearer: BroadcastBearer, fmCountry?: string): string[] {
  return parameterSets(bearer, fmCountry).map((set) => [bearer.system, ...set].join("/"));
}

/** `0.4e01.4fe1.4e1.dab.radiodns.org`: the ServiceIdentifier's parts reversed, under the root. */
export function lookupNamesOf(bearer: BroadcastBearer, fmCountry?: string): string[] {
  return parameterSets(bearer, fmCountry).map((set) =>
    [...set].reverse().concat(bearer.system, RADIODNS_ROOT).join("."),
  );
}

/**
 * Why the GCC cannot be the bearer's, or undefined. The GCC is the country id (the first nibble
 * of the FM PI code or of the DAB SId) followed by the ECC; a receiver builds it from exactly
 * those, so a GCC that disagrees with them names a lookup no radio will ever make.
 */
export function gccProblem(bearer: BroadcastBearer): string | undefined {
  if (bearer.system !== "dab" && bearer.system !== "fm") return undefined;
  const countryId = bearer.gcc.slice(0, 1);
  const ecc = bearer.gcc.slice(1);
  if (countryId === "0") return `GCC ${bearer.gcc} has country id 0, which no country has`;
  // ECCs are allocated from a0 to f9 (ETSI TS 101 756); nothing outside names a country.
  if (ecc < "a0" || ecc > "f9") return `GCC ${bearer.gcc} has ECC ${ecc}, outside a0–f9`;
  if (bearer.system === "fm") {
    if (bearer.pi[0] !== countryId) {
      return `GCC ${bearer.gcc} must start with the PI code's country id ${bearer.pi[0]} (pi ${bearer.pi})`;
    }
    return undefined;
  }
  // A 32-bit SId (data services) carries the ECC and the country id itself: ECC, id, reference.
  const sidCountryId = bearer.sid.length === 8 ? bearer.sid[2] : bearer.sid[0];
  if (sidCountryId !== countryId) {
    return `GCC ${bearer.gcc} must start with the SId's country id ${sidCountryId} (sid ${bearer.sid})`;
  }
  if (bearer.sid.length === 8 && bearer.sid.slice(0, 2) !== ecc) {
    return `GCC ${bearer.gcc} must end with the SId's ECC ${bearer.sid.slice(0, 2)} (sid ${bearer.sid})`;
  }
  return undefined;
}
