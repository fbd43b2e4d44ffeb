import { describe, expect, it } from "vitest";
import { decodeXml } from "../../../src/import/read/decodeXml.js";
import { XmlSyntaxError } from "../../../src/import/read/xmlTree.js";

const bytes = (text: string, encoding: BufferEncoding = "utf8") => Buffer.from(text, encoding);

function refusal(input: Buffer): string {
  try {
    decodeXml(input, "a.xml");
  } catch (error) {
    if (!(error instanceof XmlSyntaxError)) throw error;
    return `${error.position.line}:${error.position.column} ${error.message}`;
  }
  return "decoded";
}

describe("decodeXml", () => {
  it("reads UTF-8, with or without a declaration or byte order mark", () => {
    expect(decodeXml(bytes("<a>Café</a>"), "a.xml")).toBe("<a>Café</a>");
    expect(decodeXml(bytes('\ufeff<?xml version="1.0" encoding="utf-8"?><a/>'), "a.xml")).toBe(
      '<?xml version="1.0" encoding="utf-8"?><a/>',
    );
  });

  it("refuses Latin-1 text in a document that is (or says it is) UTF-8, where it starts", () => {
    expect(refusal(bytes("<a>\n  Café</a>", "latin1"))).toMatch(
      /^2:6 the text is not UTF-8: byte 0xE9 here \("é" in Latin-1.*\(no encoding is declared, so it must be\)$/,
    );
    expect(refusal(bytes('<?xml version="1.0" encoding="UTF-8"?>\n<a>Café</a>', "latin1"))).toMatch(
      /^2:7 .*as its XML declaration says it is$/,
    );
  });

  it("reads the encodings a declaration may name, and refuses text not in them", () => {
    expect(
      decodeXml(bytes('<?xml version="1.0" encoding="ISO-8859-1"?><a>Café</a>', "latin1"), "a.xml"),
    ).toContain("<a>Café</a>");
    expect(
      decodeXml(Buffer.concat([Buffer.from([0xff, 0xfe]), bytes("<a>é</a>", "utf16le")]), "a.xml"),
    ).toBe("<a>é</a>");
    expect(refusal(bytes('<?xml version="1.0" encoding="US-ASCII"?>\n<a>Café</a>', "latin1"))).toBe(
      "2:7 byte 0xE9 is not US-ASCII, the encoding the XML declaration names",
    );
    expect(refusal(bytes('<?xml version="1.0" encoding="Shift_JIS"?><a/>'))).toBe(
      '1:31 the encoding "Shift_JIS" is not read by spi-static import (UTF-8, UTF-16, ISO-8859-1 and US-ASCII are)',
    );
  });
});
