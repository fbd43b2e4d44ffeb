import { describe, expect, it } from "vitest";
import { loadSchedule } from "../../src/load/loadSchedule.js";
import { parseInput } from "../../src/load/schema/parseInput.js";
import { scheduleSchema } from "../../src/load/schema/scheduleSchema.js";
import type { InputProblem } from "../../src/load/text/inputProblem.js";
import { parseYamlText } from "../../src/load/text/readYamlFile.js";

/** What loading a schedule file with this text reports (it must pass its schema). */
function loadProblems(text: string): InputProblem[] {
  const file = parseYamlText("f.yaml", text);
  const problems: InputProblem[] = [];
  const input = parseInput(scheduleSchema, file, problems);
  expect(input).toBeDefined();
  if (input) loadSchedule(input, file, problems);
  return problems;
}

describe("loadSchedule", () => {
  it("guesses the show meant for the first 20 unknown names only (each guess reads every show)", () => {
    const unknown = Array.from({ length: 22 }, (_, i) => `morningg${i}`);
    const text = `shows:
${unknown.map((_, i) => `  morning${i}:\n    name: { long: Morning ${i} }`).join("\n")}
grid:
  - days: daily
    slots:
${unknown.map((show, i) => `      - { start: "${String(i).padStart(2, "0")}:00", show: ${show} }`).join("\n")}
`;
    const undefinedShows = loadProblems(text).filter((p) => p.message.includes("is not defined"));
    expect(undefinedShows.map((p) => p.message).slice(18)).toEqual([
      'show "morningg18" is not defined under shows; did you mean "morning18"?',
      'show "morningg19" is not defined under shows; did you mean "morning19"?',
      'show "morningg20" is not defined under shows',
      'show "morningg21" is not defined under shows',
    ]);
  });

  it("reports a slot naming a built-in property of objects (constructor) as an unknown show", () => {
    const text = `shows:
  morning:
    name: { long: Morning }
grid:
  - days: daily
    slots:
      - { start: "06:00", show: morning }
      - { start: "09:00", show: constructor }
      - { start: "18:00", show: morning }
`;
    expect(loadProblems(text).map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([
      '8:33 show "constructor" is not defined under shows',
    ]);
  });
});
