/** `creationTime="…"` on the root (SI) or on `schedule` (PI): it comes before any text content. */
const CREATION_TIME = Buffer.from(' creationTime="');
const QUOTE = '"'.charCodeAt(0);

/**
 * Whether a rendered document says the same as the published one. Every build stamps a new
 * creationTime; a document that differs in nothing else keeps its old bytes and mtime, so CDN
 * sync tools and ETags see no change. Compares bytes: a `"` byte is always the character.
 */
export function sameDocument(path: string, published: Buffer, rendered: Buffer): boolean {
  if (published.equals(rendered)) return true;
  if (!path.endsWith(".xml") || published.length !== rendered.length) return false;
  const before = creationTimeIn(published);
  const after = creationTimeIn(rendered);
  if (!before || !after) return false;
  return (
    published.subarray(0, before.start).equals(rendered.subarray(0, after.start)) &&
    published.subarray(before.end).equals(rendered.subarray(after.end))
  );
}

/** Where the first creationTime attribute starts and ends, if there is one. */
function creationTimeIn(document: Buffer): { start: number; end: number } | undefined {
  const start = document.indexOf(CREATION_TIME);
  if (start === -1) return undefined;
  const closingQuote = document.indexOf(QUOTE, start + CREATION_TIME.length);
  return closingQuote === -1 ? undefined : { start, end: closingQuote + 1 };
}
