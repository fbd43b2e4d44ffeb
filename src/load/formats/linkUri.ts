import { quoted } from "../text/inputProblem.js";
import { CONTACT_SCHEMES, type ContactScheme, contactUriProblem } from "./contactUri.js";
import { parseUri } from "./uriSyntax.js";

/**
 * The URI schemes a link may use: those TS 102 818 names for links (Annex A: tel, sms, postal,
 * mailto, http(s), crid) and the broadcast bearers of TS 103 270 (dab, fm, hd, drm, amss).
 * Anything else (javascript:, data:, file:, …) has no meaning to a radio and could harm a
 * client that follows it, so it is refused rather than published.
 */
const LINK_SCHEMES = [
  "http",
  "https",
  "mailto",
  "tel",
  "sms",
  "postal",
  "crid",
  "dab",
  "fm",
  "hd",
  "drm",
  "amss",
] as const;

/** Why `uri` cannot be a link's uri, or undefined when it can. */
export function linkUriProblem(uri: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase();
  if (scheme !== undefined && !(LINK_SCHEMES as readonly string[]).includes(scheme)) {
    return `${quoted(`${scheme}:`)} is not a link scheme SPI clients use (expected one of ${LINK_SCHEMES.join(", ")})`;
  }
  if ((CONTACT_SCHEMES as readonly string[]).includes(scheme ?? "")) {
    const problem = contactUriProblem(scheme as ContactScheme, uri);
    if (problem) return problem;
  }
  const parsed = parseUri(uri);
  if (!parsed.ok) return `${quoted(uri)} ${parsed.reason}`;
  if (parsed.scheme === "http" || parsed.scheme === "https")
    return webHostProblem(uri, parsed.host);
  return undefined;
}

/** Why `url` cannot be an http(s) URL (of an image, stream or website), or undefined. */
export function httpUrlProblem(url: string): string | undefined {
  const parsed = parseUri(url);
  if (!/^https?:/i.test(url)) return `${quoted(url)} is not an http(s) URL`;
  if (!parsed.ok) return `${quoted(url)} ${parsed.reason}`;
  return webHostProblem(url, parsed.host);
}

function webHostProblem(url: string, host: string | undefined): string | undefined {
  if (!host) return `${quoted(url)} has no host (expected e.g. https://www.example.com/)`;
  // The WHATWG parser is what browsers and clients use: it must accept the host too.
  if (!URL.canParse(url)) return `${quoted(url)} has a host that is not valid`;
  return undefined;
}

/**
 * The schemes of a terrestrial event locator: the DVB locator of ETSI TS 102 851, whose
 * `;<event id>` names one broadcast event, and the broadcast bearers of TS 103 270 for locators
 * a broadcaster's own system defines on them.
 */
const EVENT_LOCATOR_SCHEMES = ["dvb", "dab", "fm", "hd", "drm", "amss"] as const;

/** Why `uri` cannot be a terrestrial event locator, or undefined when it can. */
export function eventLocatorProblem(uri: string): string | undefined {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(uri)?.[1]?.toLowerCase();
  if (scheme === undefined || !(EVENT_LOCATOR_SCHEMES as readonly string[]).includes(scheme)) {
    return `${quoted(uri)} is not a broadcast locator (expected a URI of ${EVENT_LOCATOR_SCHEMES.join(", ")}, e.g. dvb://233a.1004.1044;1f3)`;
  }
  const parsed = parseUri(uri);
  return parsed.ok ? undefined : `${quoted(uri)} ${parsed.reason}`;
}
