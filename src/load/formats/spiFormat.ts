/**
 * Limits and patterns of the SPI and RadioDNS formats that the input schema, the loader's checks
 * and the render stage share (TS 102 818 §5; the seed §2).
 */

/** Characters (code points, as the XSD counts them) each name may have. */
export const NAME_LENGTHS = { short: 8, medium: 16, long: 128 } as const;
/** Characters each description may have. */
export const DESCRIPTION_LENGTHS = { short: 180, long: 1200 } as const;

/** A RadioDNS service identifier as every PI path carries it: 1–16 lower-case letters or digits. */
export const SERVICE_ID_PATTERN = /^[a-z0-9]{1,16}$/;

/** crid://<authority>/<data>; a string because the JSON Schema carries it too. */
export const CRID_PATTERN = "^crid://[^/\\s]+/\\S+$";

export const LOGO_TYPES = [
  "logo_colour_square",
  "logo_colour_rectangle",
  "logo_unrestricted",
] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
/** The two fixed-size logo types and their one allowed size; any other size is unrestricted. */
export const FIXED_LOGO_SIZES = {
  logo_colour_square: "32x32",
  logo_colour_rectangle: "112x32",
} as const satisfies Partial<Record<LogoType, string>>;
