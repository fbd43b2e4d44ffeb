import { describe, expect, it } from "vitest";
import { parseYamlText } from "../../src/load/readYamlFile.js";

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

  it("gives a value's origin as locate does, looking it up only when read", () => {
    const origin = file.origin(["grid", 1, "show"]);
    expect(origin.field).toBe("grid[1].show");
    expect({ ...origin }).toEqual(file.locate(["grid", 1, "show"]));
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
