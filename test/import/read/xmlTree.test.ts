import { describe, expect, it } from "vitest";
import { parseXml, XmlSyntaxError } from "../../../src/import/read/xmlTree.js";

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
      '2:3 attribute originator="A" of <schedule>',
      '3:5 attribute extra="1" of <programme>',
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
    expect((error as XmlSyntaxError).position).toEqual({ source: "c.xml", line: 2, column: 11 });
    expect((error as XmlSyntaxError).message).toBe(
      "</epg> does not close <schedule> (names are case-sensitive)",
    );
  });

  it("stops where a cut or malformed document stops, never yielding part of it", () => {
    const at = (text: string) => {
      try {
        parseXml(text, "d.xml");
      } catch (error) {
        if (!(error instanceof XmlSyntaxError)) throw error;
        const { line, column } = error.position;
        return `${line}:${column} ${error.message}`;
      }
      return "read";
    };
    expect(at(`<epg ${NS}>\n<schedule>\n<programme id="crid://a/1">`)).toBe(
      "3:27 the document ends inside <programme>: it was cut short",
    );
    expect(at(`<epg ${NS}>\n<schedule>\n</Schedule>\n</epg>\n\n\n`)).toBe(
      "3:1 </Schedule> does not close <schedule> (names are case-sensitive)",
    );
    expect(at(`<epg ${NS}/>\n<epg ${NS}/>`)).toBe("2:1 a second root element");
    expect(at("")).toBe("1:1 no root element");
  });

  it("expands only the five XML entities and character references; refuses others and any DOCTYPE", () => {
    const root = parseXml(
      `<epg ${NS}><a>&lt;&amp;&gt;&quot;&apos;&#233;&#x2229;</a></epg>`,
      "e.xml",
    );
    expect(root.child("a")?.text()).toBe(`<&>"'é∩`);
    for (const [text, where, what] of [
      [`<epg ${NS}>\n  <a>caf&eacute;</a></epg>`, "2:9", "&eacute;"],
      [`<epg ${NS}>\n<a>a&nbsp;b &cap;</a></epg>`, "2:5", "&nbsp;"],
      [`<epg ${NS}>\n<a>&#0;</a></epg>`, "2:4", "&#0;"],
    ] as const) {
      expect(() => parseXml(text, "e.xml")).toThrow(
        `${what} is not XML: only &amp; &lt; &gt; &quot; &apos; and character references`,
      );
      try {
        parseXml(text, "e.xml");
      } catch (error) {
        const { line, column } = (error as XmlSyntaxError).position;
        expect(`${line}:${column}`).toBe(where);
      }
    }
    let doctype: unknown;
    try {
      parseXml(
        `<?xml version="1.0"?>\n<!DOCTYPE epg [<!ENTITY n "x">]>\n<epg ${NS}>&n;</epg>`,
        "e.xml",
      );
    } catch (error) {
      doctype = error;
    }
    expect(doctype).toBeInstanceOf(XmlSyntaxError);
    expect((doctype as XmlSyntaxError).position).toEqual({ source: "e.xml", line: 2, column: 1 });
    expect((doctype as XmlSyntaxError).message).toMatch(/^a DOCTYPE is refused/);
  });

  it("normalises line ends and attribute white space as XML does", () => {
    const root = parseXml(`<epg ${NS}\r\n a="one\r\ntwo\tthree"><b/></epg>`, "f.xml");
    expect(root.attribute("a")).toBe("one two three");
    expect(root.childElements[0]?.position).toMatchObject({ line: 3, column: 12 });
  });

  it("reads 300,000 sibling elements and 100,000 nested ones without overflowing the stack", () => {
    const siblings = parseXml(`<epg ${NS}>${"<x/>".repeat(300_000)}</epg>`, "g.xml");
    expect(siblings.unread()).toHaveLength(300_000);
    const nested = parseXml(
      `<epg ${NS}>${"<x>".repeat(100_000)}${"</x>".repeat(100_000)}</epg>`,
      "h.xml",
    );
    let deepest = nested;
    for (let next = deepest.child("x"); next; next = next.child("x")) deepest = next;
    expect(nested.unread()).toEqual([]);
  });
});
