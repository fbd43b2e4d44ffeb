/** Where an SVG names a file or URL of its own: what the renderer would try to load. */
export interface SvgReference {
  line: number;
  column: number;
  reference: string;
}

/**
 * An `href` (`xlink:href`), a CSS `url(...)` or `@import`, or an external entity: references an
 * SVG renderer follows. A logo must be self-contained — a reference to a fragment of itself
 * (`#id`) or a `data:` URL is fine; anything else would make the build read a file of the machine
 * or fetch from the network, and the logo would differ by where it was built.
 */
const REFERENCE =
  /\b(?:xlink:)?href\s*=\s*(["'])([^"']*)\1|url\(\s*(["']?)([^"')]*)\3\s*\)|@import\s+(["'])([^"']*)\5|<!ENTITY[^>]*\b(SYSTEM|PUBLIC)\b/gi;

export function externalSvgReferences(text: string): SvgReference[] {
  const found: SvgReference[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const reference = (
      match[2] ??
      match[4] ??
      match[6] ??
      `an external entity (${match[7]})`
    ).trim();
    const isOwn =
      match[7] === undefined &&
      (reference === "" || reference.startsWith("#") || /^data:/i.test(reference));
    if (isOwn) continue;
    found.push({ ...positionOf(text, match.index), reference });
  }
  return found;
}

/**
 * Where an SVG draws text (`<text>`, `<tspan>`, `<textPath>`): a renderer draws it with the fonts
 * of the machine it runs on, so the logo's pixels (and its content-named file) would differ
 * between a laptop and a CI runner.
 */
export function svgTextElements(text: string): SvgReference[] {
  return [...text.matchAll(/<(?:\w+:)?(text|tspan|textPath)\b/g)].map((match) => ({
    ...positionOf(text, match.index),
    reference: match[1] as string,
  }));
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: offset - lineStart + 1 };
}
