import { describe, expect, it } from "vitest";
import { decodeUtf8 } from "../../../src/load/text/decodeUtf8.js";

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))),
  );

describe("decodeUtf8", () => {
  it("decodes UTF-8, all four sequence lengths, and drops a leading byte order mark only", () => {
    expect(decodeUtf8(bytes("a: Zürich € 𝄞\n"))).toEqual({ text: "a: Zürich € 𝄞\n" });
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], "a: \ufeff\n"))).toEqual({ text: "a: \ufeff\n" });
  });

  it("names the line and column of the first byte that is not UTF-8, in characters", () => {
    const latin1 = Buffer.from("id: one\r\nname: { long: Zürich Café }\n", "latin1");
    expect(decodeUtf8(latin1)).toEqual({
      invalid: {
        line: 2,
        column: 16,
        message:
          'is not UTF-8: byte 0xFC here ("ü" in Latin-1: the file is probably Latin-1 or Windows-1252); save it as UTF-8',
      },
    });
    // A byte order mark is no column; a two-byte character is one.
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], "a: é", [0x80]))).toMatchObject({
      invalid: { line: 1, column: 5, message: "is not UTF-8: byte 0x80 here; save it as UTF-8" },
    });
  });

  it.each([
    ["an overlong encoding", [0xc0, 0x80]],
    ["a UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["a code point beyond U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
    ["a sequence cut short at the end", [0xe2, 0x82]],
  ])("refuses %s", (_, sequence) => {
    expect(decodeUtf8(bytes("ok: ", sequence))).toMatchObject({ invalid: { line: 1, column: 5 } });
  });

  it("recognises UTF-16 by its byte order mark or by the zero bytes of its ASCII", () => {
    const says = (text: Buffer) => ("invalid" in decodeUtf8(text) ? decodeUtf8(text) : undefined);
    expect(says(Buffer.from("\ufeffid: one\n", "utf16le"))).toEqual({
      invalid: {
        line: 1,
        column: 1,
        message:
          "is not UTF-8: it is UTF-16 (little-endian, with a byte order mark); save it as UTF-8",
      },
    });
    expect(says(Buffer.from("id: one\n", "utf16le").swap16())).toMatchObject({
      invalid: {
        message: expect.stringContaining("UTF-16 (big-endian, without a byte order mark)"),
      },
    });
  });
});
