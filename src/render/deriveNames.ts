import type { Names } from "../load/broadcaster.js";
import { NAME_LENGTHS } from "../load/spiFormat.js";

/** Cuts to `limit` characters (code points, as the XSD counts them), ending with `…` when cut. */
export function truncateWithEllipsis(text: string, limit: number): string {
  const chars = Array.from(text);
  if (chars.length <= limit) return text;
  return `${chars
    .slice(0, limit - 1)
    .join("")
    .trimEnd()}…`;
}

/** The names to publish: mediumName is required by SPI, so derive it from the long name. */
export function deriveNames(names: Names): { short?: string; medium: string; long: string } {
  return {
    ...(names.short ? { short: names.short } : {}),
    medium: names.medium ?? truncateWithEllipsis(names.long, NAME_LENGTHS.medium),
    long: names.long,
  };
}

/** The same for a translation, which may give any of the three names. */
export function deriveSomeNames(names: Partial<Names>): Partial<Names> {
  const { long } = names;
  return long === undefined ? names : deriveNames({ ...names, long });
}
