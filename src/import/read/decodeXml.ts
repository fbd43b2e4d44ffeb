import { decodeUtf8 } from "../../load/text/decodeUtf8.js";
import { XmlSyntaxError } from "./xmlTree.js";

/**
 * A document's bytes as text, in the encoding its byte order mark or XML declaration names
 * (UTF-8 when neither does, as XML 1.0 §4.3.3 says). Never replaces a byte with U+FFFD: text
 * that is not in its encoding is refused where it stops being so, as `build` refuses a data
 * file, so a Latin-1 "Café" is never imported as "Caf�" without a word.
 */
export function decodeXml(bytes: Uint8Array, source: string): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (buffer[0] === 0xff && buffer[1] === 0xfe) return utf16(buffer, "utf-16le", source);
  if (buffer[0] === 0xfe && buffer[1] === 0xff) return utf16(buffer, "utf-16be", source);
  const declared = declaredEncoding(buffer);
  const name = declared?.name.toLowerCase();
  if (name === undefined || name === "utf-8" || name === "utf8") {
    const decoded = decodeUtf8(bytes);
    if ("text" in decoded) return decoded.text;
    const { line, column, message } = decoded.invalid;
    throw new XmlSyntaxError(
      `the text ${message.replace(/; save it as UTF-8$/, "")}${name ? ", as its XML declaration says it is" : " (no encoding is declared, so it must be)"}`,
      { source, line, column },
    );
  }
  if (name === "iso-8859-1" || name === "latin1" || name === "iso_8859-1" || name === "l1") {
    return buffer.toString("latin1");
  }
  if (name === "us-ascii" || name === "ascii") {
    const bad = buffer.findIndex((byte) => byte > 0x7f);
    if (bad === -1) return buffer.toString("latin1");
    const before = buffer.subarray(0, bad).toString("latin1");
    const lineStart = before.lastIndexOf("\n") + 1;
    throw new XmlSyntaxError(
      `byte 0x${(buffer[bad] ?? 0).toString(16).toUpperCase()} is not US-ASCII, the encoding the XML declaration names`,
      {
        source,
        line: (before.match(/\n/g)?.length ?? 0) + 1,
        column: bad - lineStart + 1,
      },
    );
  }
  throw new XmlSyntaxError(
    `the encoding "${declared?.name}" is not read by spi-static import (UTF-8, UTF-16, ISO-8859-1 and US-ASCII are)`,
    { source, line: 1, column: (declared?.offset ?? 0) + 1 },
  );
}

/** `encoding="…"` of the XML declaration, and its offset on line 1. */
function declaredEncoding(buffer: Buffer): { name: string; offset: number } | undefined {
  const head = buffer.subarray(0, 200).toString("latin1");
  const declaration = /^<\?xml\s[^?]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head);
  if (!declaration?.[1]) return undefined;
  return { name: declaration[1], offset: head.indexOf(declaration[1]) };
}

function utf16(buffer: Buffer, encoding: "utf-16le" | "utf-16be", source: string): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(buffer.subarray(2));
  } catch {
    throw new XmlSyntaxError(`the text is not valid ${encoding.toUpperCase()}`, {
      source,
      line: 1,
      column: 1,
    });
  }
}
