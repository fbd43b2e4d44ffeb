import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validate } from "../../src/cli/validateCommand.js";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-validate-"));
afterAll(() => rm(root, { recursive: true, force: true }));

async function project(name: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  await cp("test/fixtures/minimal", join(dir, "data"), { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, "data", path), text);
  return dir;
}

const BAD_TIME = `shows:
  music:
    name: { long: Music All Day }
grid:
  - days: daily
    slots:
      - { start: "24:00", show: music }
`;

describe("spi-static validate", () => {
  it("finds no errors in the example data/, and only the warnings it means to give", async () => {
    // Two shows leave out name.medium on purpose, to show the derived mediumName in the output.
    const intended = [
      'data/schedules/klassik.yaml:93:11 shows.kammermusik.name.medium: warning: is not given, so the long name (42 characters) is cut to 16 with "…" for mediumName',
      'data/schedules/news.yaml:19:11 shows.morning.name.medium: warning: is not given, so the long name (37 characters) is cut to 16 with "…" for mediumName',
    ];
    const { lines, exitCode } = await validate({
      data: "data",
      now: Date.parse("2026-11-23T08:00:00Z"),
    });
    expect(lines.slice(0, -1)).toEqual(intended);
    expect(lines.at(-1)).toBe("spi-static: data is valid, 2 warnings, 5 services ready to build");
    expect(exitCode).toBe(0);
  });

  it("prints each problem with file:line:column and field, and exits 1 on an error", async () => {
    const dir = await project("error", { "schedules/one.yaml": BAD_TIME });
    const result = await runInProcess(["validate"], dir);
    expect(result.stdout).toBe(
      [
        'data/schedules/one.yaml:7:18 grid[0].slots[0].start: "24:00" is not a time of day (expected HH:MM); midnight is "00:00" (an end of "00:00" is the next midnight)',
        "spi-static: data is invalid (1 error), 0 warnings, 0 services ready to build",
        "",
      ].join("\n"),
    );
    expect(result.exitCode).toBe(1);
  });

  it("prints warnings but exits 0 when there is no error", async () => {
    const withQuiz = `shows:
  music:
    name: { long: Music All Day }
  quiz:
    name: { long: The Quiz }
grid:
  - days: daily
    slots:
      - { start: "00:00", show: music }
      - { start: "12:00", show: music }
`;
    const dir = await project("warning", { "schedules/one.yaml": withQuiz });
    const result = await runInProcess(["validate", "--data", "data"], dir);
    expect(result.stdout.split("\n")).toEqual([
      "data/schedules/one.yaml:4:3 shows.quiz: warning: is never scheduled",
      "spi-static: data is valid, 1 warning, 1 service ready to build",
      "",
    ]);
    expect(result.exitCode).toBe(0);
  });

  it("reports as one line of JSON with --json", async () => {
    const dir = await project("json", { "schedules/one.yaml": BAD_TIME });
    const result = await runInProcess(["validate", "--json"], dir);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      errors: 1,
      warnings: 0,
      brokenServices: ["one"],
      problems: [
        {
          file: "data/schedules/one.yaml",
          line: 7,
          column: 18,
          field: "grid[0].slots[0].start",
          severity: "error",
          message:
            '"24:00" is not a time of day (expected HH:MM); midnight is "00:00" (an end of "00:00" is the next midnight)',
        },
      ],
    });
    expect(result.exitCode).toBe(1);
  });
});
