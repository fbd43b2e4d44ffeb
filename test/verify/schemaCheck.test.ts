import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SchemaCheck } from "../../src/verify/schemaCheck.js";

const sample = (name: string) =>
  readFileSync(new URL(`../fixtures/spi-samples/${name}`, import.meta.url), "utf8");
/** The real PI sample padded to a megabyte by a comment: a few fill a batch. */
const bigPi = sample("PI_real.xml").replace(/\?>/, `?><!--${" ".repeat(1024 * 1024)}-->`);

describe("SchemaCheck", () => {
  it("validates every document added by parallel requests across batches, and names the invalid one", async () => {
    const schema = new SchemaCheck();
    const names = Array.from({ length: 13 }, (_, i) => `PI ${i}`);
    const adds = [
      ...names.map((name) => ({ name, xml: bigPi })),
      { name: "SI", xml: sample("SI.xml") },
    ];
    let next = 0;
    // As verify adds them: eight requests at a time, each waiting on its own add.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < adds.length) await schema.add(adds[next++] as (typeof adds)[number]);
      }),
    );
    await schema.flush();
    expect(schema.count).toBe(14);
    expect(schema.violationCount).toBe(2);
    expect(schema.violations.map((v) => [v.document, v.line])).toEqual([
      ["SI", 16],
      ["SI", 51],
    ]);
  });
});
