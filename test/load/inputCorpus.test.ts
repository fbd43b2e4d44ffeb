import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validate } from "../../src/cli/validateCommand.js";

/**
 * The corpus of broken inputs: each file under test/fixtures/broken/<folder>/ is the minimal
 * data folder (test/fixtures/minimal) with one mistake. It replaces that folder's file (or adds
 * the file its `# file:` line names). The `# expect:` lines at its end are exactly what
 * `spi-static validate` must print, in that order, and `# exit:` the exit code.
 */
const MINIMAL = "test/fixtures/minimal";
const NOW = Date.parse("2026-11-23T08:00:00Z");
const BROKEN = "test/fixtures/broken";
const BASELINE_FILE: Record<string, string> = {
  provider: "provider.yaml",
  services: "services/one.yaml",
  schedules: "schedules/one.yaml",
};

interface Case {
  name: string;
  text: string;
  target: string;
  expected: string[];
  exit: number;
}

async function loadCases(): Promise<Case[]> {
  const cases: Case[] = [];
  for (const folder of Object.keys(BASELINE_FILE)) {
    for (const name of (await readdir(join(BROKEN, folder))).sort()) {
      const text = await readFile(join(BROKEN, folder, name), "utf8");
      const header = (key: string) =>
        [...text.matchAll(new RegExp(`^# ${key}: (.*)$`, "gm"))].map((m) => m[1] as string);
      cases.push({
        name: `${folder}/${name}`,
        text,
        target: header("file")[0] ?? (BASELINE_FILE[folder] as string),
        expected: header("expect"),
        exit: Number(header("exit")[0]),
      });
    }
  }
  return cases;
}

const cases = await loadCases();
const root = await mkdtemp(join(tmpdir(), "spi-static-corpus-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("spi-static validate on the corpus of broken inputs", () => {
  it("has a case for every rule, each stating its message and exit code", () => {
    expect(cases.length).toBeGreaterThanOrEqual(45);
    for (const c of cases) {
      expect(c.expected.length, c.name).toBeGreaterThan(0);
      expect([0, 1], c.name).toContain(c.exit);
    }
  });

  it("finds nothing wrong with the minimal data folder itself", async () => {
    expect(await validate({ data: MINIMAL, now: NOW })).toEqual({
      lines: [`spi-static: ${MINIMAL} is valid, 0 warnings, 1 service ready to build`],
      exitCode: 0,
    });
  });

  for (const c of cases) {
    it(`${c.name}: ${c.text.match(/^# mistake: (.*)$/m)?.[1]}`, async () => {
      const project = join(root, c.name.replace(/[/.]/g, "-"));
      await cp(MINIMAL, join(project, "data"), { recursive: true });
      await mkdir(dirname(join(project, "data", c.target)), { recursive: true });
      await writeFile(join(project, "data", c.target), c.text);
      const { lines, exitCode } = await validate({ data: join(project, "data"), now: NOW });
      // Messages name files relative to the working folder; the expectations, to the project.
      const shown = `${relative(process.cwd(), project)}${sep}`;
      expect(lines.slice(0, -1).map((line) => line.replaceAll(shown, ""))).toEqual(c.expected);
      expect(exitCode).toBe(c.exit);
    });
  }
});
