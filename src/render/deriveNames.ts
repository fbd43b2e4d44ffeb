import { NAME_LENGTHS } from "../load/formats/spiFormat.js";
import type { Names } from "../load/model/broadcaster.js";

/**
 * Cuts to `limit` characters (code points, as the XSD counts them), ending with `…` when cut.
 * Counts code points only as far as the limit, without an array of them: every programme
 * element derives its mediumName here, which was 4 % of rendering (issue 23).
 */
export function truncateWithEllipsis(text: string, limit: number): string {
  // A code point is one or two UTF-16 units: a text no longer than the limit in units fits.
  if (text.length <= limit) return text;
  let codePoints = 0;
  /** Where the first `limit - 1` code points end, in UTF-16 units. */
  let kept = 0;
  for (let at = 0; at < text.length; codePoints++) {
    if (codePoints === limit) return `${text.slice(0, kept).trimEnd()}…`;
    at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1;
    if (codePoints + 1 === limit - 1) kept = at;
  }
  return text;
}

/** The names to publish: mediumName is required by SPI, so derive it from the long name. */
export function deriveNames(names: Names): { short?: string; medium: string; long: string } {
  return {
    ...(names.short ? { short: names.short } : {}),
    medium: names.medium ?? truncateWithEllipsis(names.long, NAME_LENGTHS.medium),
    long: names.long,
  };
}

/**
 * The same for a translation, which may give any of the three names. Copies the names only
 * when there is a mediumName to derive: each programme element's names pass here (issue 23).
 */
export function deriveSomeNames(names: Partial<Names>): Partial<Names> {
  const { long, medium } = names;
  if (long === undefined || medium !== undefined) return names;
  return { ...names, medium: truncateWithEllipsis(long, NAME_LENGTHS.medium) };
}
