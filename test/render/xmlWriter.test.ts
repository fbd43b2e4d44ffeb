import { describe, expect, it } from "vitest";
import { FragmentSlabs, slot, XmlWriter } from "../../src/render/xmlWriter.js";

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

  it("writes white space a parser would change as character references, so it reads back the same", () => {
    const name = "Line one\r\nline two\rend";
    const note = "tab\there\nnew line\r";
    const text = XmlWriter.document((xml) => {
      xml.ele("root", { note });
      xml.ele("name").txt(name).up();
    }).toString("utf8");
    expect(text).toContain('note="tab&#9;here&#10;new line&#13;"');
    expect(text).toContain("<name>Line one&#13;\nline two&#13;end</name>");
    // What an XML 1.0 parser reads: raw CR and CRLF become LF (§2.11); in attribute values a raw
    // tab, LF or CR then becomes a space (§3.3.3); character references are decoded last.
    const decode = (raw: string) =>
      raw.replace(/&#(\d+);/g, (_, code) => String.fromCodePoint(Number(code)));
    const read = text.replace(/\r\n?/g, "\n");
    const attribute = /note="([^"]*)"/.exec(read)?.[1] ?? "";
    expect(decode(attribute.replace(/[\t\n]/g, " "))).toBe(note);
    expect(decode(/<name>([^<]*)<\/name>/.exec(read)?.[1] ?? "")).toBe(name);
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

  it("fills a fragment's slots by name with each use's values, escaped", () => {
    const fragment = XmlWriter.fragment<"id" | "at">(1, (xml) => {
      xml.ele("p", { id: slot("id"), kind: "x" }).ele("t", { at: slot("at"), of: slot("id") });
      xml.up().up();
    });
    const text = XmlWriter.document((xml) => {
      xml.ele("root");
      xml.insert(fragment, { at: '"Zürich"', id: "a&b" });
      xml.insert(fragment, { id: "c", at: "<d>" });
    }).toString("utf8");
    expect(text).toBe(
      `${DECLARATION}\n<root>` +
        '\n  <p id="a&amp;b" kind="x">\n    <t at="&quot;Zürich&quot;" of="a&amp;b"/>\n  </p>' +
        '\n  <p id="c" kind="x">\n    <t at="&lt;d&gt;" of="c"/>\n  </p>\n</root>\n',
    );
    const missing = { id: "one" } as { id: string; at: string };
    expect(() => XmlWriter.document((xml) => xml.ele("root").insert(fragment, missing))).toThrow(
      /no value for the fragment's slot "at"/,
    );
    expect(() => XmlWriter.document((xml) => xml.ele("root", { id: slot("id") }))).toThrow(
      /slot "id" outside a fragment/,
    );
  });

  it("fills slots after text of two, three and four UTF-8 bytes a character", () => {
    const fragment = XmlWriter.fragment<"a" | "b">(1, (xml) => {
      xml
        .ele("p")
        .ele("n")
        .txt("Zürich")
        .up()
        .ele("t", { a: slot("a") })
        .up();
      xml
        .ele("n")
        .txt("€ 🎵 Genève")
        .up()
        .ele("t", { b: slot("b"), c: "ö" })
        .up()
        .up();
    });
    const text = XmlWriter.document((xml) => {
      xml.ele("root").insert(fragment, { a: "1", b: "é2" });
    }).toString("utf8");
    expect(text).toBe(
      `${DECLARATION}\n<root>\n  <p>\n    <n>Zürich</n>\n    <t a="1"/>` +
        '\n    <n>€ 🎵 Genève</n>\n    <t b="é2" c="ö"/>\n  </p>\n</root>\n',
    );
  });

  it("keeps each fragment's bytes when later fragments, small or larger than a slab, follow", () => {
    const small = (text: string) =>
      XmlWriter.fragment<"id">(1, (xml) =>
        xml
          .ele("s", { id: slot("id") })
          .txt(text)
          .up(),
      );
    const first = small("eins");
    const huge = XmlWriter.fragment(1, (xml) => xml.ele("h").txt("ä".repeat(100_000)).up());
    const others = Array.from({ length: 100 }, (_, i) => small(`n${i} ${"x".repeat(1000)}`));
    const text = XmlWriter.document((xml) => {
      xml.ele("root").insert(first, { id: "1" }).insert(huge);
      xml.insert(others[99] as typeof first, { id: "99" });
    }).toString("utf8");
    expect(text).toBe(
      `${DECLARATION}\n<root>\n  <s id="1">eins</s>\n  <h>${"ä".repeat(100_000)}</h>` +
        `\n  <s id="99">n99 ${"x".repeat(1000)}</s>\n</root>\n`,
    );
  });

  it("gives slabs back for later fragments, which never change another owner's kept ones", () => {
    const item = (text: string, slabs: FragmentSlabs) =>
      XmlWriter.fragment(1, (xml) => xml.ele("i").txt(text).up(), slabs);
    const render = (...fragments: ReturnType<typeof item>[]) =>
      XmlWriter.document((xml) => {
        xml.ele("root");
        for (const fragment of fragments) xml.insert(fragment);
      }).toString("utf8");
    const kept = new FragmentSlabs();
    const keptItem = item("kept", kept);
    const expected = render(keptItem);
    for (let round = 0; round < 3; round++) {
      // A service's worth of fragments, filling several slabs, then given back.
      const slabs = new FragmentSlabs();
      const items = Array.from({ length: 200 }, (_, i) =>
        item(`r${round} ${i} ${"y".repeat(900)}`, slabs),
      );
      expect(
        render(items[0] as ReturnType<typeof item>, items[199] as ReturnType<typeof item>),
      ).toBe(
        `${DECLARATION}\n<root>\n  <i>r${round} 0 ${"y".repeat(900)}</i>` +
          `\n  <i>r${round} 199 ${"y".repeat(900)}</i>\n</root>\n`,
      );
      slabs.release();
      expect(() => item("late", slabs)).toThrow(/given back/);
    }
    expect(render(keptItem)).toBe(expected);
  });

  it("writes what its doc comment's example says", () => {
    const item = XmlWriter.fragment<"id">(1, (xml) => {
      xml
        .ele("item", { id: slot("id") })
        .ele("name")
        .txt("Zürich & Bern")
        .up()
        .up();
    });
    const bytes = XmlWriter.document((xml) => {
      xml.ele("list", { kind: "towns" });
      xml.insert(item, { id: "a1" }).insert(item, { id: "b2" });
    });
    const item1 = '\n  <item id="a1">\n    <name>Zürich &amp; Bern</name>\n  </item>';
    expect(bytes.toString("utf8")).toBe(
      `${DECLARATION}\n<list kind="towns">${item1}${item1.replace("a1", "b2")}\n</list>\n`,
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
