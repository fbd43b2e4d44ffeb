import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isNode, LineCounter, parseDocument } from "yaml";
import { lazyYamlFile, parseYamlText } from "../../../src/load/text/readYamlFile.js";

async function yamlFilesIn(dirs: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const dir of dirs) {
    for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && entry.name.endsWith(".yaml"))
        found.push(join(entry.parentPath, entry.name));
    }
  }
  return found.sort();
}

const readText = (path: string) => readFile(path, "utf8");

/** The path of every mapping and list in a parsed value, the root's included. */
function collectionPaths(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  if (typeof value !== "object" || value === null) return [];
  const entries: [PropertyKey, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return [path, ...entries.flatMap(([key, item]) => collectionPaths(item, [...path, key]))];
}

/** Where yaml's own Document puts the value at `path` (or its nearest existing parent). */
function yamlPosition(text: string, path: PropertyKey[]) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const { line, col } = lineCounter.linePos(node.range[0]);
      return { line, column: col };
    }
  }
  return { line: 1, column: 1 };
}

const text = `name:
  short: One
grid:
  - { start: "06:00", show: morning }
  - start: "10:00"
    show: music
`;

describe("parseYamlText", () => {
  const file = parseYamlText("one.yaml", text);

  it("locates a value, in block and in flow style", () => {
    expect(file.locate(["name", "short"])).toEqual({
      file: "one.yaml",
      line: 2,
      column: 10,
      field: "name.short",
    });
    expect(file.locate(["grid", 0, "show"])).toMatchObject({
      line: 4,
      column: 29,
      field: "grid[0].show",
    });
    expect(file.locate(["grid", 1, "show"])).toMatchObject({ line: 6, column: 11 });
  });

  it("locates a missing field at its parent", () => {
    expect(file.locate(["name", "long"])).toMatchObject({ line: 2, column: 3, field: "name.long" });
  });

  it("locates a key itself, for a misnamed field", () => {
    expect(file.locateKey(["grid", 1, "show"])).toMatchObject({ line: 6, column: 5 });
    expect(file.locateKey(["name"])).toMatchObject({ line: 1, column: 1, field: "name" });
  });

  it("locates every mapping and list where yaml's Document puts it, in any file", async () => {
    const texts = [
      ...(await Promise.all((await yamlFilesIn(["data", "test/fixtures"])).map(readText))),
      "- { a: 1 }\n-   b: 2\n- - x\n  - y\n-\n  c: 3\n",
      'k: "multi\n  line"\nl: |\n  x\n\n  y\nm:\n  # note\n  a: [ {x: 1}, [2] ]\n',
      "\ufeffa:\r\n  b: [1]\r\n  c: >\r\n    x\r\n    y\r\n  d: { e: 1 }\r\n",
      "a: &x\n  b: [1]\nc: *x\nd: &y [ { e: 1 } ]\nf: [*y]\n",
      "a: b\rc:\r  d: [1]\r",
    ];
    expect(texts.length).toBeGreaterThan(60);
    for (const text of texts) {
      const parsed = parseYamlText("f.yaml", text);
      for (const path of collectionPaths(parsed.value)) {
        expect(parsed.locate(path), `${JSON.stringify(text)} at ${String(path)}`).toMatchObject(
          yamlPosition(text, path),
        );
      }
    }
  });

  it("locates a value where yaml does, also where there is no collection", () => {
    expect(file.locate(["grid", 1, "show"])).toMatchObject(yamlPosition(text, ["grid", 1, "show"]));
    expect(file.locate(["grid", 5])).toMatchObject(yamlPosition(text, ["grid", 5]));
  });

  it("takes the value from yaml when the quick parser declines the file", () => {
    const tagged = parseYamlText("tagged.yaml", "a: !!str 1\nb: [1, 0x1F]\n");
    expect(tagged.value).toEqual({ a: "1", b: [1, 31] });
    expect(tagged.syntaxProblems).toEqual([]);
  });

  it("reports a key given twice by name, at the second one", () => {
    const twice = parseYamlText("two.yaml", "id: one\nname: a\nname: b\n");
    expect(twice.value).toBeUndefined();
    expect(twice.syntaxProblems).toEqual([
      {
        file: "two.yaml",
        line: 3,
        column: 1,
        field: "",
        severity: "error",
        message: '"name" appears twice in the same mapping (YAML keys must be unique)',
      },
    ]);
  });

  it("reports a syntax error with its position", () => {
    const broken = parseYamlText("three.yaml", 'a: "open\n');
    expect(broken.syntaxProblems[0]).toMatchObject({ line: 2, column: 1, severity: "error" });
    expect(broken.syntaxProblems[0]?.message).toMatch(/^YAML syntax: /);
  });
});

describe("lazyYamlFile", () => {
  const text =
    "shows:\n  morning:\n    name: { short: Morning }\nepisodes:\n  - date: 2026-11-23\n  - date: 2026-11-24\n";

  it("parses its text only when a position is asked for, and locates as parseYamlText does", () => {
    let reads = 0;
    const file = lazyYamlFile("schedule.yaml", () => {
      reads++;
      return text;
    });
    const origin = file.locateLater(["episodes", 1]);
    expect(reads).toBe(0);
    const parsed = parseYamlText("schedule.yaml", text);
    // A spread reads an origin's fields, as the messages built from origins do.
    expect({ ...origin, severity: "warning" }).toEqual({
      ...parsed.locate(["episodes", 1]),
      severity: "warning",
    });
    expect(origin).toMatchObject({ file: "schedule.yaml", line: 6, field: "episodes[1]" });
    expect(file.locate(["shows", "morning", "name"])).toEqual(
      parsed.locate(["shows", "morning", "name"]),
    );
    expect(reads).toBe(1);
  });
});
