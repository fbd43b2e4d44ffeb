import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";

const sample = (name: string) => ({
  name,
  xml: readFileSync(new URL(`../fixtures/spi-samples/${name}`, import.meta.url), "utf8"),
});

describe("validateSpiDocuments", () => {
  it("accepts the real PI and GI samples", async () => {
    expect(await validateSpiDocuments([sample("PI_real.xml"), sample("GI.xml")])).toEqual([]);
  });

  it("rejects the real SI sample, whose keywords come after link (proof the validator can fail)", async () => {
    const violations = await validateSpiDocuments([sample("GI.xml"), sample("SI.xml")]);
    expect(violations.map((v) => [v.document, v.line])).toEqual([
      ["SI.xml", 16],
      ["SI.xml", 51],
    ]);
    expect(violations[0]?.message).toContain("keywords': This element is not expected");
  });
});
