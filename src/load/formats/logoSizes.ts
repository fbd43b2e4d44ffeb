import type { LogoType } from "../formats/spiFormat.js";

/** A logo size the build makes from a source: what it is for and what it must be. */
export interface LogoSize {
  /** WIDTHxHEIGHT, as the `logos:` list and `logo.sizes` name it. */
  readonly name: "32x32" | "112x32" | "128x128" | "320x240" | "600x600";
  readonly width: number;
  readonly height: number;
  readonly type: LogoType;
  /**
   * Which source it is made from: the square sizes from `logo.source`, the 112x32 rectangle from
   * `logo.rectangle` and the 4:3 size from `logo.landscape` when given.
   */
  readonly shape: "square" | "rectangle" | "landscape";
}

/**
 * The sizes RadioDNS clients look for (TS 102 818 §6.5 and §5.8 table 8: the 32x32 square and
 * 112x32 rectangle logos are fixed-size PNGs; the others are unrestricted images at their size).
 */
export const LOGO_SIZES: readonly LogoSize[] = [
  { name: "32x32", width: 32, height: 32, type: "logo_colour_square", shape: "square" },
  { name: "112x32", width: 112, height: 32, type: "logo_colour_rectangle", shape: "rectangle" },
  { name: "128x128", width: 128, height: 128, type: "logo_unrestricted", shape: "square" },
  { name: "320x240", width: 320, height: 240, type: "logo_unrestricted", shape: "landscape" },
  { name: "600x600", width: 600, height: 600, type: "logo_unrestricted", shape: "square" },
];

export type LogoSizeName = LogoSize["name"];

export const LOGO_SIZE_NAMES = LOGO_SIZES.map((size) => size.name) as [
  LogoSizeName,
  ...LogoSizeName[],
];
