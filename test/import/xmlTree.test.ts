import { describe, expect, it } from "vitest";
import { parseXml, XmlSyntaxError } from "../../src/import/xmlTree.js";

const NS = 'xmlns="http://www.worlddab.org/schemas/spi/31"';

describe("parseXml", () => {
  it("reads SPI elements, their text (CDATA too) and xml:lang, inherited from ancestors", () => {
    const root = parseXml(
      `<epg ${NS} xml:lang="de"><schedule><programme><longName><![CDATA[ Morgen & mehr ]]></longName></programme></schedule></epg>`,
      "a.xml",
    );
    const longName = root.child("schedule")?.child("programme")?.child("longName");
    expect(longName?.text()).toBe("Morgen & mehr");
    expect(longName?.language()).toBe("de");
  });

  it("lists what no reader asked for, with line and column: elements, attributes, other namespaces", () => {
    const root = parseXml(
      `<epg ${NS} xmlns:x="urn:other">\n  <schedule originator="A">\n    <programme id="crid://a/1" x:extra="1"><geolocation/></programme>\n  </schedule>\n  <x:note/>\n</epg>`,
      "b.xml",
    );
    root.child("schedule")?.child("programme")?.attribute("id");
    expect(root.unread().map((u) => `${u.position.line}:${u.position.column} ${u.what}`)).toEqual([
      "2:3 attribute originator of <schedule>",
      "3:5 attribute extra of <programme>",
      "3:44 element <geolocation>",
      "5:3 element <note> of namespace <urn:other>",
    ]);
  });

  it("refuses a document that is not well-formed, saying where", () => {
    let error: unknown;
    try {
      parseXml(`<epg ${NS}>\n<schedule></epg>`, "c.xml");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(XmlSyntaxError);
    expect((error as XmlSyntaxError).position).toMatchObject({ source: "c.xml", line: 2 });
    expect((error as XmlSyntaxError).message).toMatch(/Unexpected close tag/);
  });
});
