import { isUtf8 } from "node:buffer";

/** Where a file stops being UTF-8, and what it probably is instead. */
export interface NotUtf8 {
  line: number;
  column: number;
  message: string;
}

/**
 * A data file's text, or where it is not UTF-8. Decoding never replaces a byte with U+FFFD: a
 * Latin-1 `Café` would otherwise be published as `Caf�` without a word. A leading byte order
 * mark is dropped, so positions on line 1 count from the first character the author sees.
 */
export function decodeUtf8(bytes: Uint8Array): { text: string } | { invalid: NotUtf8 } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const utf16 = utf16Kind(bytes);
  if (!utf16 && isUtf8(bytes)) {
    return {
      text: Buffer.from(bytes.buffer, bytes.byteOffset + bom, bytes.length - bom).toString("utf8"),
    };
  }
  if (utf16) {
    return {
      invalid: {
        line: 1,
        column: 1,
        message: `is not UTF-8: it is UTF-16 (${utf16}); save it as UTF-8`,
      },
    };
  }
  const bad = firstInvalidByte(bytes);
  const before = Buffer.from(bytes.buffer, bytes.byteOffset + bom, bad - bom).toString("utf8");
  const lineStart = before.lastIndexOf("\n") + 1;
  const byte = bytes[bad] as number;
  return {
    invalid: {
      line: (before.match(/\n/g)?.length ?? 0) + 1,
      column: before.length - lineStart + 1,
      message: `is not UTF-8: byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} here${latin1Hint(bytes, bad)}; save it as UTF-8`,
    },
  };
}

/**
 * UTF-16 by its byte order mark, or without one by the zero bytes every other byte that ASCII
 * text has in it (zero bytes are valid UTF-8, but never in YAML).
 */
function utf16Kind(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "little-endian, with a byte order mark";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "big-endian, with a byte order mark";
  const sample = bytes.subarray(0, 64 - (Math.min(bytes.length, 64) % 2));
  if (sample.length < 4) return undefined;
  let evenZeros = 0;
  let oddZeros = 0;
  sample.forEach((byte, index) => {
    if (byte === 0) {
      if (index % 2 === 0) evenZeros++;
      else oddZeros++;
    }
  });
  const half = sample.length / 2;
  if (oddZeros === half && evenZeros === 0) return "little-endian, without a byte order mark";
  if (evenZeros === half && oddZeros === 0) return "big-endian, without a byte order mark";
  return undefined;
}

/** Latin-1 (or Windows-1252) text has lone bytes from 0xA0 up where UTF-8 needs sequences. */
function latin1Hint(bytes: Uint8Array, at: number): string {
  const byte = bytes[at] as number;
  if (byte < 0xa0) return "";
  return ` ("${String.fromCharCode(byte)}" in Latin-1: the file is probably Latin-1 or Windows-1252)`;
}

/** The offset of the first byte that does not belong to a well-formed UTF-8 sequence. */
function firstInvalidByte(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const length = sequenceLength(bytes, at);
    if (length === 0) return at;
    at += length;
  }
  return bytes.length;
}

/** The length of the well-formed sequence at `at` (RFC 3629 table), or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, at: number): number {
  const first = bytes[at] as number;
  if (first < 0x80) return 1;
  const continuation = (offset: number, low = 0x80, high = 0xbf) => {
    const byte = bytes[at + offset];
    return byte !== undefined && byte >= low && byte <= high;
  };
  if (first >= 0xc2 && first <= 0xdf) return continuation(1) ? 2 : 0;
  if (first >= 0xe0 && first <= 0xef) {
    const [low, high] =
      first === 0xe0 ? [0xa0, 0xbf] : first === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) ? 3 : 0;
  }
  if (first >= 0xf0 && first <= 0xf4) {
    const [low, high] =
      first === 0xf0 ? [0x90, 0xbf] : first === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return continuation(1, low, high) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}
