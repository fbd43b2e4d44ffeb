import { expect, it } from "vitest";
import { formatNote, summariseNotes } from "../../src/import/importNote.js";

it("lists the first four notes of a kind and counts the rest in one line", () => {
  const notes = Array.from({ length: 50_000 }, (_, i) => ({
    origin: `SI.xml:${i + 2}:7`,
    message: `attribute x${i}="1" of <bearer> is not imported`,
    kind: "attributes not imported",
  }));
  const lines = summariseNotes([...notes, { origin: "SI.xml:1:1", message: "other" }]).map(
    formatNote,
  );
  expect(lines).toEqual([
    'SI.xml:2:7: attribute x0="1" of <bearer> is not imported',
    'SI.xml:3:7: attribute x1="1" of <bearer> is not imported',
    'SI.xml:4:7: attribute x2="1" of <bearer> is not imported',
    'SI.xml:5:7: attribute x3="1" of <bearer> is not imported',
    "SI.xml:6:7: and 49,996 more: attributes not imported (the first of them here)",
    "SI.xml:1:1: other",
  ]);
});

it("says a repeated note once, with how often", () => {
  const note = { origin: "PI.xml:3:5", message: "no longName" };
  expect(summariseNotes([note, note, note]).map(formatNote)).toEqual([
    "PI.xml:3:5: no longName (3 times; the first here)",
  ]);
});
