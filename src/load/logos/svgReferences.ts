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

interface SvgElement {
  id: string | undefined;
  /** The `#id` a `<use>` draws again. */
  uses: string | undefined;
  children: SvgElement[];
}

const TAG = /<(\/?)([A-Za-z_][\w:.-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/**
 * How many elements an SVG draws once each `<use>` is replaced by what it names, counted from
 * the text alone (no drawing). A few nested `<use>`s multiply: 60 of them can name 250,000
 * elements, which librsvg draws for a minute before it gives up or not. A reference cycle counts
 * as endless.
 */
export function svgDrawnElements(text: string): number {
  const root: SvgElement = { id: undefined, uses: undefined, children: [] };
  const byId = new Map<string, SvgElement>();
  const open = [root];
  for (const [, closing, name, attributes = ""] of text.matchAll(TAG)) {
    if (closing) {
      if (open.length > 1) open.pop();
      continue;
    }
    const id = /\sid\s*=\s*["']([^"']*)["']/.exec(attributes)?.[1];
    const href = /\s(?:xlink:)?href\s*=\s*["']#([^"']*)["']/.exec(attributes)?.[1];
    const local = name?.slice(name.indexOf(":") + 1);
    const element = { id, uses: local === "use" ? href : undefined, children: [] };
    open.at(-1)?.children.push(element);
    if (id !== undefined && !byId.has(id)) byId.set(id, element);
    if (!attributes.endsWith("/")) open.push(element);
  }
  const counted = new Map<SvgElement, number>();
  const counting = new Set<SvgElement>();
  const count = (element: SvgElement): number => {
    const known = counted.get(element);
    if (known !== undefined) return known;
    if (counting.has(element)) return Number.POSITIVE_INFINITY;
    counting.add(element);
    const used = element.uses === undefined ? undefined : byId.get(element.uses);
    let total = 1 + (used === undefined ? 0 : count(used));
    for (const child of element.children) total += count(child);
    counting.delete(element);
    counted.set(element, total);
    return total;
  };
  return count(root) - 1;
}
