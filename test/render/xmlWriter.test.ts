import { describe, expect, it } from "vitest";
import { SLOT, XmlWriter } from "../../src/render/xmlWriter.js";

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

describe("XmlWriter", () => {
  it("writes indented UTF-8, escaping text and attribute values", () => {
    const bytes = XmlWriter.document((xml) => {
      xml.ele("root", { note: 'a "b" & <c>' });
      xml.ele("name").txt("Zürich & <Genève> 🎵").up();
      xml.ele("empty").up();
    });
    expect(bytes).toBeInstanceOf(Buffer);
    expect(bytes.toString("utf8")).toBe(
      `${DECLARATION}\n<root note="a &quot;b&quot; &amp; &lt;c&gt;">` +
        "\n  <name>Zürich &amp; &lt;Genève&gt; 🎵</name>\n  <empty/>\n</root>\n",
    );
  });

  it("copies fragments in place, at the depth they were rendered for", () => {
    const fragment = XmlWriter.fragment(1, (xml) => {
      xml.ele("a").txt("Grüezi").up();
      xml.ele("b").up();
    });
    const text = XmlWriter.document((xml) => {
      xml.ele("root").insert(fragment).ele("c").up().insert(fragment);
    }).toString("utf8");
    const inner = "\n  <a>Grüezi</a>\n  <b/>";
    expect(text).toBe(`${DECLARATION}\n<root>${inner}\n  <c/>${inner}\n</root>\n`);
    expect(() =>
      XmlWriter.document((xml) => xml.ele("root").ele("deeper").insert(fragment)),
    ).toThrow(/depth 1 written at 2/);
  });

  it("fills a fragment's slots with each use's values, escaped", () => {
    const fragment = XmlWriter.fragment(1, (xml) => {
      xml.ele("p", { id: SLOT, kind: "x" }).ele("t", { at: SLOT }).up().up();
    });
    const text = XmlWriter.document((xml) => {
      xml.ele("root");
      xml.insert(fragment, ["a&b", '"Zürich"']);
      xml.insert(fragment, ["c", "<d>"]);
    }).toString("utf8");
    expect(text).toBe(
      `${DECLARATION}\n<root>` +
        '\n  <p id="a&amp;b" kind="x">\n    <t at="&quot;Zürich&quot;"/>\n  </p>' +
        '\n  <p id="c" kind="x">\n    <t at="&lt;d&gt;"/>\n  </p>\n</root>\n',
    );
    expect(() => XmlWriter.document((xml) => xml.ele("root").insert(fragment, ["one"]))).toThrow(
      /2 slots given 1 values/,
    );
    expect(() => XmlWriter.document((xml) => xml.ele("root", { id: SLOT }))).toThrow(
      /SLOT outside a fragment/,
    );
  });

  it("writes documents of any size, one after the other, each with its own bytes", () => {
    const long = "ä".repeat(100_000);
    const big = XmlWriter.document((xml) => {
      xml.ele("root");
      for (let i = 0; i < 5; i++) xml.ele("t").txt(long).up();
    });
    const small = XmlWriter.document((xml) => xml.ele("small").up());
    expect(big.toString("utf8")).toBe(
      `${DECLARATION}\n<root>${`\n  <t>${long}</t>`.repeat(5)}\n</root>\n`,
    );
    expect(small.toString("utf8")).toBe(`${DECLARATION}\n<small/>\n`);
  });

  it("writes a document started while another one is being written", () => {
    let inner: Buffer | undefined;
    const outer = XmlWriter.document((xml) => {
      xml.ele("outer");
      inner = XmlWriter.document((nested) => nested.ele("inner").txt("x").up());
      xml.ele("after").up();
    });
    expect(outer.toString("utf8")).toBe(`${DECLARATION}\n<outer>\n  <after/>\n</outer>\n`);
    expect(inner?.toString("utf8")).toBe(`${DECLARATION}\n<inner>x</inner>\n`);
  });
});
