import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAndSchedule } from "../src/loadAndSchedule.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-validate-data-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const NOW = Date.parse("2026-11-23T08:00:00Z");
const schedule = await readFile("test/fixtures/minimal/schedules/one.yaml", "utf8");
const service = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");

async function dataFolder(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(root, name);
  await cp("test/fixtures/minimal", dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
  return dir;
}

describe("loadAndSchedule", () => {
  it("reports a grid overlap once, though it recurs on every day laid out", async () => {
    const dir = await dataFolder("recurring", {
      "schedules/one.yaml": schedule.replace(
        '{ start: "06:00",',
        '{ start: "06:00", end: "11:00",',
      ),
    });
    const { problems, scheduled, brokenServices } = await loadAndSchedule(dir, NOW);
    expect(problems.map((p) => [p.field, p.message.replace(/ .*\.yaml/, " …yaml")])).toEqual([
      ["grid[0].slots[1]", "overlaps …yaml:9:9 grid[0].slots[0] (on 2026-11-13)"],
    ]);
    expect(brokenServices).toEqual(["one"]);
    expect(scheduled?.services).toEqual([]);
  });

  it("finds an overlap on a dated day far outside the build's window", async () => {
    const dir = await dataFolder("far", {
      "schedules/one.yaml": `${schedule}dates:
  - date: 2030-01-01
    slots:
      - { start: "00:00", end: "12:00", show: music }
      - { start: "11:00", show: morning }
`,
    });
    const { problems } = await loadAndSchedule(dir, NOW);
    const errors = problems.filter((p) => p.severity === "error");
    expect(errors.map((p) => `${p.field}: ${p.message.replace(/ .*\.yaml/, " …yaml")}`)).toEqual([
      "dates[0].slots[1]: overlaps …yaml:15:9 dates[0].slots[0] (on 2030-01-01)",
    ]);
  });

  it("lays out the services without errors, ready to render", async () => {
    const dir = await dataFolder("two", {
      "services/two.yaml": service.replace("id: one", "id: two"),
      "schedules/two.yaml": schedule.replace("show: music", "show: nothing"),
    });
    const { scheduled, brokenServices } = await loadAndSchedule(dir, NOW);
    expect(scheduled?.today).toBe("2026-11-23");
    expect(scheduled?.services.map((s) => s.service.id)).toEqual(["one"]);
    expect(scheduled?.services[0]?.programmes().length).toBeGreaterThan(30);
    expect(brokenServices).toEqual(["two"]);
  });
});
