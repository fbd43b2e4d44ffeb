import { describe, expect, it } from "vitest";
import { parseInput } from "../../../src/load/schema/parseInput.js";
import { providerSchema } from "../../../src/load/schema/providerSchema.js";
import { scheduleSchema } from "../../../src/load/schema/scheduleSchema.js";
import { serviceSchema } from "../../../src/load/schema/serviceSchema.js";
import type { InputProblem } from "../../../src/load/text/inputProblem.js";
import { parseYamlText } from "../../../src/load/text/readYamlFile.js";

function problemsOf(schema: Parameters<typeof parseInput>[0], text: string): string[] {
  const problems: InputProblem[] = [];
  parseInput(schema, parseYamlText("f.yaml", text), problems);
  return problems.map((p) => `${p.line}:${p.column} ${p.field}: ${p.message}`);
}

const service = (extra: string) => `id: one
name: { short: One, long: Radio One }
genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.6.1", name: Pop }]
${extra}`;

describe("parseInput", () => {
  it("accepts names and descriptions exactly at the SPI limits", () => {
    const text = service(
      `description: { short: "${"s".repeat(180)}", long: "${"l".repeat(1200)}" }`,
    )
      .replace("short: One,", `short: ${"x".repeat(8)}, medium: ${"m".repeat(16)},`)
      .replace("long: Radio One", `long: ${"n".repeat(128)}`);
    expect(problemsOf(serviceSchema, text)).toEqual([]);
  });

  it("rejects each name and description one character over its limit", () => {
    const text = service(
      `description: { short: "${"s".repeat(181)}", long: "${"l".repeat(1201)}" }`,
    )
      .replace("short: One,", `short: ${"x".repeat(9)}, medium: ${"m".repeat(17)},`)
      .replace("long: Radio One", `long: ${"n".repeat(129)}`);
    expect(problemsOf(serviceSchema, text)).toEqual([
      "2:16 name.short: is 9 characters long; at most 8 characters are allowed",
      "2:35 name.medium: is 17 characters long; at most 16 characters are allowed",
      "2:60 name.long: is 129 characters long; at most 128 characters are allowed",
      "4:23 description.short: is 181 characters long; at most 180 characters are allowed",
      "4:214 description.long: is 1201 characters long; at most 1200 characters are allowed",
    ]);
  });

  it("counts characters as the XSD does, so an emoji is one", () => {
    const fifteenAndAGuitar = `${"r".repeat(15)}🎸`;
    expect(fifteenAndAGuitar.length).toBe(17);
    expect(
      problemsOf(
        serviceSchema,
        service("").replace("long: Radio One", `medium: "${fifteenAndAGuitar}", long: Radio One`),
      ),
    ).toEqual([]);
    expect(
      problemsOf(
        serviceSchema,
        service("").replace("long: Radio One", `medium: "${fifteenAndAGuitar}🎸", long: Radio One`),
      ),
    ).toEqual(["2:29 name.medium: is 17 characters long; at most 16 characters are allowed"]);
  });

  it("reports every problem of a file, not only the first", () => {
    const text = `name: { long: Test }
originator: ""
language: English
timeZone: Europe/Zurich
radiodnsHost: rdns.test.example
colour: blue
`;
    expect(problemsOf(providerSchema, text)).toEqual([
      "1:7 name.short: is required: SPI's serviceProvider needs a shortName (at most 8 characters)",
      "2:13 originator: is empty",
      '3:11 language: "English" is not a language tag (e.g. en, de-CH; subtags of at most 8 letters or digits)',
      "1:1 cridAuthority: is required",
      "6:1 colour: is not a known field",
    ]);
  });

  it("gives one problem per field", () => {
    const grid = `shows: {}
grid:
  - days: daily
    slots:
      - { start: "6:00 am", show: Music }
`;
    expect(problemsOf(scheduleSchema, grid)).toEqual([
      '5:18 grid[0].slots[0].start: "6:00 am" is not a time of day (expected HH:MM)',
      '5:35 grid[0].slots[0].show: "Music" is not an identifier (lower-case letters, digits, -)',
    ]);
  });

  it("passes on the YAML syntax problems instead of checking the shape", () => {
    expect(problemsOf(serviceSchema, "id: [one\n")).toHaveLength(1);
  });
});
