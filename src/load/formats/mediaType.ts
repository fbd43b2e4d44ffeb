import { quoted } from "../text/inputProblem.js";

/**
 * A media type as SPI's `mimeType` accepts it: `type/subtype` without parameters or spaces
 * (its pattern allows only the characters `!`–`.` and `0`–`~` on either side of one `/`). The
 * names follow RFC 6838's restricted-name, which that pattern contains.
 */
const MEDIA_TYPE =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

/** The image types a file extension names: for image URLs, and as shorthands below. */
const IMAGE_TYPES_BY_EXTENSION: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  svg: "image/svg+xml",
};

/** What people write for a media type, and the type they mean. */
const SHORTHANDS: Record<string, string> = {
  ...IMAGE_TYPES_BY_EXTENSION,
  html: "text/html",
  htm: "text/html",
  text: "text/plain",
  txt: "text/plain",
  mp3: "audio/mpeg",
  aac: "audio/aacp",
  xml: "application/xml",
  pdf: "application/pdf",
};

/** Why `value` is not a media type SPI can carry, or undefined when it is one. */
export function mediaTypeProblem(value: string): string | undefined {
  if (MEDIA_TYPE.test(value)) return undefined;
  const base = value.split(";")[0]?.trim() ?? "";
  if (value.includes(";") && MEDIA_TYPE.test(base)) {
    return `${quoted(value)} has parameters, which SPI's mimeValue cannot carry; write ${base}`;
  }
  const meant = SHORTHANDS[value.trim().toLowerCase().replace(/^\./, "")];
  const hint = meant ? `; did you mean ${meant}?` : " (expected type/subtype, e.g. text/html)";
  return `${quoted(value)} is not a media type${hint}`;
}

/** The media type an image URL's extension names, or undefined when it names none. */
export function imageMimeType(url: string): string | undefined {
  const extension = /\.([a-z]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  return extension ? IMAGE_TYPES_BY_EXTENSION[extension] : undefined;
}
