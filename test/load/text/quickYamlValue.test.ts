import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDocument, stringify } from "yaml";
import { quickYamlValue } from "../../../src/load/text/quickYamlValue.js";

/**
 * The quick parser stands in for `yaml` only where both agree: it gives `yaml`'s value, or
 * declines (undefined) and leaves the file, its value and its messages to `yaml`. It must never
 * give a value for a file in which `yaml` finds an error.
 */
function compare(text: string) {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const yamlErrors: string[] = doc.errors.map((error) => error.code);
  let yamlValue: unknown;
  try {
    if (yamlErrors.length === 0) yamlValue = doc.toJS();
  } catch (error) {
    // An alias without its anchor passes parsing and fails here.
    yamlErrors.push(String(error));
  }
  return { quick: quickYamlValue(text), yamlErrors, yamlValue };
}

function expectAgreement(text: string) {
  const { quick, yamlErrors, yamlValue } = compare(text);
  if (!quick) return;
  expect(yamlErrors, JSON.stringify(text)).toEqual([]);
  expect(quick.value, JSON.stringify(text)).toStrictEqual(yamlValue);
}

async function yamlFilesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".yaml"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

const exampleFiles = await yamlFilesIn("data");
const examples = await Promise.all(exampleFiles.map((file) => readFile(file, "utf8")));
const corpus = await Promise.all(
  (await yamlFilesIn("test/fixtures")).map((file) => readFile(file, "utf8")),
);

describe("quickYamlValue", () => {
  it("reads every file of the example data/ itself, with yaml's value", () => {
    expect(exampleFiles.length).toBeGreaterThanOrEqual(11);
    for (const [i, text] of examples.entries()) {
      const { quick, yamlValue } = compare(text);
      expect(quick, exampleFiles[i]).toBeDefined();
      expect(quick?.value, exampleFiles[i]).toStrictEqual(yamlValue);
    }
  });

  it("agrees with yaml on every file of the test fixtures, the broken corpus included", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(45);
    for (const text of corpus) expectAgreement(text);
  });

  it("types plain scalars by YAML 1.2's core schema, as yaml does", () => {
    const text = [
      "a: 1_000",
      "b: 0b101",
      "c: 0o17",
      "d: 0x1F",
      "e: 017",
      "f: +12",
      "g: -0",
      "h: 1e3",
      "i: .5",
      "j: 1.",
      "k: -.Inf",
      "l: .NaN",
      "m: 12:30",
      "n: 2026-11-29",
      "o: ~",
      "p: Null",
      "q:",
      "r: nULL",
      "s: TRUE",
      "t: yes",
      "u: on",
      `v: ${"9".repeat(400)}`,
      "w: 123456789012345678901234567890",
      "",
    ].join("\n");
    const { quick, yamlValue } = compare(text);
    expect(quick?.value).toStrictEqual(yamlValue);
    expect(quick?.value).toMatchObject({ a: "1_000", b: "0b101", c: 15, d: 31, e: 17, m: "12:30" });
    expect(quick?.value).toMatchObject({
      n: "2026-11-29",
      q: null,
      s: true,
      t: "yes",
      v: Infinity,
    });
  });

  it("reads strings in every style as yaml does", () => {
    for (const text of [
      'a: "\\ud800 \\ud83d\\ude00 \\U0001F600 \\x07 \\e \\0 \\N \\_ \\L \\P \\/ \\t"\n',
      "a: 'it''s'\nb: 'multi\n\n  line'\n",
      'a: "line\n  two\n\n  three"\nb: "\\\n  x"\n',
      "a: plain\n  folded\n\n  more\nb: x#c\nc: x # comment\n",
      "a: |\n  x\n   y\n\n\nb: |-\n  x\n\nc: |+\n  x\n\n\nd: 1\n",
      "a: >\n  x\n  y\n\n   z\n  w\nb: |2\n   x\n  y\nc: >-\n\n  x\n",
      "a:\r\n  b: 1\r\n  c: |\r\n    x\r\n    y\r\n",
      "\ufeffa: b\u2028c\nd: e\u0085f\ng: \t1\n",
      "- [a, b: c, {d: e}]\n- {a, b: }\n",
      "- - - x\n- ? a\n  : b\n",
      "--- \na: 1\n...\n",
      "a: |1\n  x\nb: >2\n   x\n  y\n",
      "- |1\n  x\n- |2\n   x\n",
      "? |\n  block key\n: v\n",
      "constructor: 1\ntoString: 2\nhasOwnProperty: 3\n",
      "a: &x [1, {b: 2}]\nb: *x\nc: &y s\nd: *y\ne: &z\nf: *z\n",
      "a: &x 1\nb: *x\nc: &x 2\nd: *x\n",
      "a: &x [&x 1]\nb: *x\n",
    ]) {
      const { quick, yamlValue } = compare(text);
      expect(quick, JSON.stringify(text)).toBeDefined();
      expect(quick?.value, JSON.stringify(text)).toStrictEqual(yamlValue);
    }
  });

  it("declines what it does not take on itself, and every syntax error", () => {
    for (const text of [
      "1: a\n",
      "true: a\n",
      "~: a\n",
      ": a\n",
      "a: 1\n'a': 2\n",
      "? [a, b]\n: 1\n",
      "<<: {a: 1}\nb: 2\n",
      "__proto__: {a: 1}\n",
      "a: &x [*x]\n",
      "a: *x\n",
      "a: &x [1]\nb: &y [*x]\nc: *y\n",
      "a: &k b\n*k : 1\n",
      "&k a: 1\n",
      `a: &x 1\nb: [${Array(101).fill("*x").join(", ")}]\n`,
      "a: !!str 1\n",
      "a: ! x\n",
      "%YAML 1.1\n---\na: 0b1\n",
      "a: 1\n---\nb: 2\n",
      "|1-\n x \n",
      "a\n",
      "",
      "# only a comment\n",
      `${"x".repeat(1100)}: 1\n`,
      "a: b: c\n",
      "a: `x`\n",
      'a: "x"#c\n',
      "a:\n  b: 1\n c: 2\n",
      `a: ${"[".repeat(120)}${"]".repeat(120)}\n`,
    ]) {
      expect(quickYamlValue(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it("agrees with yaml on anything yaml writes", () => {
    const key = fc.oneof(
      fc.string(),
      fc.constantFrom("1", "true", "null", "~", "<<", "a b", "- x"),
    );
    const scalar = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom("06:00", "2026-11-29", "0x1F", "1e3", ".inf", "yes", "", " x ", "a\n\nb "),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
    );
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        scalar,
        fc.array(tie("value")),
        fc.dictionary(key, tie("value")),
      ),
    }));
    const options = fc.record({
      lineWidth: fc.constantFrom(0, 20, 80),
      minContentWidth: fc.constantFrom(0, 20),
      collectionStyle: fc.constantFrom("any", "block", "flow"),
      defaultStringType: fc.constantFrom("PLAIN", "QUOTE_DOUBLE", "QUOTE_SINGLE", "BLOCK_LITERAL"),
      indent: fc.constantFrom(2, 4),
    } as const);
    fc.assert(
      fc.property(value, options, (written, style) => {
        expectAgreement(stringify(written, style));
      }),
      { numRuns: 500 },
    );
  });

  it("never gives a value where yaml finds an error, on randomly damaged example files", () => {
    const pieces = [" ", "\n", "\n  ", ": ", "- ", "#", '"', "'", "[", "]", "{", "}", ",", "|"];
    pieces.push(">", "\t", "&a ", "*a", "!", "? ", "%", "@", "`", "\\", "---\n", "...", "\r\n");
    pieces.push("0x1F", "1e3", "~", "<<: ", "\u00a0", "\ufeff", "\u0007", "|-\n", ">2\n");
    const edit = fc.record({
      at: fc.nat(),
      kind: fc.constantFrom("insert", "delete", "repeatLine"),
      piece: fc.constantFrom(...pieces),
      length: fc.integer({ min: 1, max: 3 }),
    });
    fc.assert(
      fc.property(fc.nat(examples.length - 1), fc.array(edit, { minLength: 1 }), (i, edits) => {
        let text = examples[i] as string;
        for (const { at, kind, piece, length } of edits) {
          const where = at % (text.length + 1);
          if (kind === "insert") text = text.slice(0, where) + piece + text.slice(where);
          else if (kind === "delete") text = text.slice(0, where) + text.slice(where + length);
          else {
            const lines = text.split("\n");
            lines.splice(at % lines.length, 0, lines[(at * 7) % lines.length] as string);
            text = lines.join("\n");
          }
        }
        expectAgreement(text);
      }),
      { numRuns: 500 },
    );
  });
});
