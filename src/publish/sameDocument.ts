import { createHash } from "node:crypto";

/**
 * The stamp of an SI or PI document: ` creationTime="…"` on the root (SI) or on `schedule` (PI),
 * and the ` version="…"` that publish writes right after it. Every build decides both anew, so
 * neither is content. The stamp comes before any text, so the first ` creationTime="` is it.
 */
export interface DocumentStamp {
  start: number;
  end: number;
  /** The document's version; an SI or PI document without the attribute is version 1 (the XSD default). */
  version: number;
  /** Where the version's digits are, if the attribute is there. */
  versionDigits?: { start: number; end: number };
}

const CREATION_TIME = Buffer.from(' creationTime="');
const VERSION = Buffer.from(' version="');
const QUOTE = '"'.charCodeAt(0);

/** The stamp of an XML document, if it has one (only SI and PI documents do). */
export function findStamp(path: string, document: Buffer): DocumentStamp | undefined {
  if (!path.endsWith(".xml")) return undefined;
  const start = document.indexOf(CREATION_TIME);
  if (start === -1) return undefined;
  const creationEnd = document.indexOf(QUOTE, start + CREATION_TIME.length);
  if (creationEnd === -1) return undefined;
  const afterCreation = creationEnd + 1;
  const versionAt = afterCreation + VERSION.length;
  if (!document.subarray(afterCreation, versionAt).equals(VERSION)) {
    return { start, end: afterCreation, version: 1 };
  }
  const versionEnd = document.indexOf(QUOTE, versionAt);
  const version = Number(document.subarray(versionAt, versionEnd).toString("latin1"));
  if (versionEnd === -1 || !Number.isSafeInteger(version) || version < 1) {
    return { start, end: afterCreation, version: 1 };
  }
  return {
    start,
    end: versionEnd + 1,
    version,
    versionDigits: { start: versionAt, end: versionEnd },
  };
}

/**
 * Whether a rendered document says the same as the published one. Every build stamps a new
 * creationTime, and a rendered document has no version until publish decides it; a document
 * that differs in nothing else keeps its old bytes and mtime, so CDN sync tools and
 * ETags see no change. Compares bytes: a `"` byte is always the character.
 */
export function sameDocument(path: string, published: Buffer, rendered: Buffer): boolean {
  if (published.equals(rendered)) return true;
  const before = findStamp(path, published);
  const after = findStamp(path, rendered);
  if (!before || !after) return false;
  return (
    published.length - (before.end - before.start) ===
      rendered.length - (after.end - after.start) &&
    published.subarray(0, before.start).equals(rendered.subarray(0, after.start)) &&
    published.subarray(before.end).equals(rendered.subarray(after.end))
  );
}

/** SHA-256 (hex) of a document's bytes outside its stamp: what its version stands for. */
export function contentDigest(document: Buffer, stamp: DocumentStamp | undefined): string {
  const hash = createHash("sha256");
  if (!stamp) return hash.update(document).digest("hex");
  return hash
    .update(document.subarray(0, stamp.start))
    .update(document.subarray(stamp.end))
    .digest("hex");
}

/**
 * The document with this version in its stamp: the attribute's digits replaced, or the attribute
 * added right after creationTime (render leaves versions to publish).
 */
export function withVersion(document: Buffer, stamp: DocumentStamp, version: number): Buffer {
  const digits = stamp.versionDigits;
  if (digits && version === stamp.version) return document;
  return Buffer.concat([
    document.subarray(0, digits?.start ?? stamp.end),
    Buffer.from(digits ? String(version) : ` version="${version}"`),
    document.subarray(digits?.end ?? stamp.end),
  ]);
}
