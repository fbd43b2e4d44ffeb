import { describe, expect, it } from "vitest";
import { emptyParts, PART_NAMES, VALIDATORS } from "../../src/build/stateParts.js";

const DIGEST = "a".repeat(64);
const problem = {
  file: "data/services/pop.yaml",
  line: 3,
  column: 5,
  field: "name",
  severity: "warning",
  message: "is long",
};
const check = (problems: unknown[]) => ({
  key: "k",
  span: { from: "2026-11-22", to: "2026-12-01" },
  check: { problems, given: [{ crid: "crid://x/1", start: 0 }] },
});

describe("each part of the state passes its own validator or is dropped", () => {
  it("takes the parts a first build has", () => {
    for (const name of PART_NAMES) expect(VALIDATORS[name](emptyParts()[name]), name).toBe(true);
  });

  it.each([
    ["owned", ["a.xml"], ["a.xml", "../b.xml"]],
    ["owned", ["a.xml"], ["_spi-static/state.json"]],
    [
      "versions",
      { "SI.xml": { version: 3, content: DIGEST } },
      { "SI.xml": { version: 0, content: DIGEST } },
    ],
    ["documents", { "SI.xml": ["in", "", DIGEST] }, { "SI.xml": ["in", "", "not hex"] }],
    ["digests", { "1:2": ["state", DIGEST] }, { "1:2": ["state"] }],
    ["services", { pop: { key: "rdns.example/pop", bearers: [] } }, { pop: { key: "pop" } }],
    ["logos", { "logos/provider/32x32-0123456789abcdef.png": 1 }, { "../x.png": 1 }],
    ["logos", { "logos/provider/32x32-0123456789abcdef.png": 1 }, { "a.png": "yesterday" }],
    ["checks", { pop: check([problem]) }, { pop: check([{ ...problem, line: undefined }]) }],
    ["checks", { pop: check([]) }, { pop: check([{ ...problem, severity: "fatal" }]) }],
    [
      "stamp",
      null,
      { check: "c", timeZone: "UTC", today: "2026-11-23", files: { "a.xml": [1, DIGEST] } },
    ],
  ] as const)("%s: takes a stored one, refuses a damaged one", (name, good, damaged) => {
    expect(VALIDATORS[name](good)).toBe(true);
    expect(VALIDATORS[name](damaged)).toBe(false);
  });
});
