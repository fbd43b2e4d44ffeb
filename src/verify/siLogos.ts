import { imageIsWhole, imageSizeOf } from "../logos/imageSize.js";
import { LOGO_FILE } from "../logos/logoDocuments.js";
import type { RawResponse } from "./fetchExactly.js";

/** A logo an SI document names: where, and the format and size SI promises for it. */
export interface NamedLogo {
  url: URL;
  type: string;
  /** The content types SI allows for it: PNG for the fixed sizes, its mimeValue otherwise. */
  types: string[];
  width?: number;
  height?: number;
}

/** TS 102 818 §6.5: the fixed-size logos are PNG of these sizes; the others say theirs. */
const FIXED = new Map([
  ["logo_colour_square", { width: 32, height: 32 }],
  ["logo_colour_rectangle", { width: 112, height: 32 }],
]);

/** The least max-age a logo should have: its name changes with its content, so a day is modest. */
export const LOGO_MIN_MAX_AGE = 24 * 60 * 60;

/** Every logo (multimedia element with an http(s) url) an SI document names, each once. */
export function logosNamedIn(si: string): NamedLogo[] {
  const logos = new Map<string, NamedLogo>();
  for (const [element] of si.matchAll(/<multimedia\b[^>]*>/g)) {
    const attribute = (name: string) =>
      new RegExp(`\\b${name}="([^"]*)"`).exec(element)?.[1]?.replaceAll("&amp;", "&");
    const type = attribute("type") ?? "logo_unrestricted";
    let url: URL;
    try {
      url = new URL(attribute("url") ?? "");
    } catch {
      continue;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") continue;
    const fixed = FIXED.get(type);
    const width = fixed?.width ?? Number(attribute("width") ?? Number.NaN);
    const height = fixed?.height ?? Number(attribute("height") ?? Number.NaN);
    const mimeValue = attribute("mimeValue");
    logos.set(`${url.href} ${type} ${width}x${height}`, {
      url,
      type,
      types: fixed ? ["image/png"] : mimeValue ? [mimeValue] : ["image/png", "image/jpeg"],
      ...(Number.isInteger(width) ? { width } : {}),
      ...(Number.isInteger(height) ? { height } : {}),
    });
  }
  return [...logos.values()];
}

/**
 * Where to fetch a logo from the verified site (its path there), or undefined for a logo on
 * another host, which verify does not fetch.
 */
export function ownLogoPath(logo: NamedLogo, site: URL): string | undefined {
  if (logo.url.host === site.host) return `${logo.url.pathname}${logo.url.search}`;
  // A path the build writes a logo to is the site's own even when SI names it on another host
  // name (`discovery.host`, while the preview is verified on loopback).
  if (LOGO_FILE.test(logo.url.pathname.slice(1))) {
    return `${site.pathname.replace(/\/+$/, "")}${logo.url.pathname}`;
  }
  return undefined;
}

/**
 * What is wrong with a logo's answer: not 200, not the image type SI says, not cacheable for
 * long by everyone, or (PNG and JPEG, read from their headers) not the pixel size SI says.
 */
export function logoProblems(logo: NamedLogo, response: RawResponse): string[] {
  if (response.status !== 200) return [`status ${response.status}`];
  const problems: string[] = [];
  const type = String(response.headers["content-type"] ?? "")
    .split(";")[0]
    ?.trim()
    .toLowerCase();
  if (!type || !logo.types.includes(type)) {
    problems.push(`Content-Type "${type}", expected ${logo.types.join(" or ")}`);
  }
  const cacheControl = String(response.headers["cache-control"] ?? "");
  const maxAge = Number(/\bmax-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
  if (
    !/\bpublic\b/.test(cacheControl) ||
    maxAge < LOGO_MIN_MAX_AGE ||
    /\bno-(store|cache)\b/.test(cacheControl)
  ) {
    problems.push(
      `Cache-Control "${cacheControl}": a logo should be public with a max-age of a day or more`,
    );
  }
  const size = imageSizeOf(response.bytes);
  if (!size) {
    problems.push("not a PNG or JPEG image");
  } else {
    if (type && `image/${size.format}` !== type) {
      problems.push(`a ${size.format.toUpperCase()} served as ${type}`);
    }
    const expected = `${logo.width ?? "?"}x${logo.height ?? "?"}`;
    const actual = `${size.width}x${size.height}`;
    if (logo.width !== undefined && logo.height !== undefined && expected !== actual) {
      problems.push(`${actual} pixels, SI says ${expected}`);
    }
    if (!imageIsWhole(response.bytes))
      problems.push("damaged: cut short, or a PNG chunk's CRC fails");
  }
  return problems;
}
