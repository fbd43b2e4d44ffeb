import { describe, expect, it } from "vitest";
import { findNonXmlText } from "../../../src/load/formats/findNonXmlText.js";

describe("findNonXmlText", () => {
  it("finds C0 controls, lone surrogates and U+FFFE/U+FFFF, with their path", () => {
    const value = {
      name: { long: "Radio\u0007One" },
      shows: [{ title: "ok" }, { title: "x\ud800y" }],
      keywords: ["\ufffe"],
    };
    expect(findNonXmlText(value)).toEqual([
      { path: ["name", "long"], codePoint: "U+0007" },
      { path: ["shows", 1, "title"], codePoint: "U+D800" },
      { path: ["keywords", 0], codePoint: "U+FFFE" },
    ]);
  });

  it("accepts tab, line breaks, accents, emoji and private-use characters", () => {
    const value = { text: "Zibelemärit\tlive\r\n🎻 \ue000 — «Kultur»", n: 3, b: true, z: null };
    expect(findNonXmlText(value)).toEqual([]);
  });

  it("checks mapping keys too", () => {
    expect(findNonXmlText({ "a\u0001": "b" })).toEqual([
      { path: ["a\u0001"], codePoint: "U+0001" },
    ]);
  });
});
