import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";
import { defaultShortIdSlot } from "../../src/load/model/shortIdSlot.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-load-"));
afterAll(() => rm(root, { recursive: true, force: true }));

async function dataFolder(name: string, files: Record<string, string> = {}): Promise<string> {
  const dir = join(root, name);
  await cp("test/fixtures/minimal", dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
  return dir;
}

const minimalService = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");
const minimalSchedule = await readFile("test/fixtures/minimal/schedules/one.yaml", "utf8");

describe("loadBroadcaster", () => {
  it("loads the model, with the provider's defaults and the logos' types", async () => {
    const { broadcaster, problems } = await loadBroadcaster(await dataFolder("model"));
    expect(problems).toEqual([]);
    if (!broadcaster) throw new Error("the model folder does not load");
    const { provider, services } = broadcaster;
    expect(provider).toMatchObject({ timeZone: "Europe/Zurich", piMarginHours: 6, language: "en" });
    const [one] = services;
    expect(one).toMatchObject({ id: "one", timeZone: "Europe/Zurich", language: "en" });
    expect(one?.logos.map((logo) => [logo.type, logo.width, logo.height, logo.mimeValue])).toEqual([
      ["logo_colour_square", 32, 32, "image/png"],
      ["logo_colour_rectangle", 112, 32, "image/png"],
      ["logo_unrestricted", 128, 128, "image/png"],
      ["logo_unrestricted", 320, 240, "image/png"],
      ["logo_unrestricted", 600, 600, "image/png"],
    ]);
    expect(one?.schedule.week.mon.map((slot) => [slot.start, slot.show])).toEqual([
      [360, "morning"],
      [600, "music"],
      [1320, "morning"],
    ]);
  });

  it("reports the errors of every file in one run, a broken service's schedule included", async () => {
    const dir = await dataFolder("all-errors", {
      "provider.yaml": (
        await readFile(join("test/fixtures/minimal/provider.yaml"), "utf8")
      ).replace("Europe/Zurich", "Europe/Zurick"),
      "services/one.yaml": minimalService.replace("short: One", "short: RadioOne1"),
      "schedules/one.yaml": minimalSchedule.replace("show: music", "show: musik"),
    });
    const report = await loadBroadcaster(dir);
    const shown = relative(process.cwd(), dir);
    expect(report.problems.map((p) => `${p.file.replace(shown, "")} ${p.field}`)).toEqual([
      "/provider.yaml timeZone",
      "/services/one.yaml name.short",
      "/schedules/one.yaml grid[0].slots[1].show",
      "/schedules/one.yaml shows.music",
    ]);
    expect(report.broadcaster).toBeUndefined();
    expect(report.brokenServices).toEqual(["one"]);
  });

  it("keeps the services without errors when another one has some", async () => {
    const dir = await dataFolder("one-broken", {
      "services/two.yaml": minimalService.replace("id: one", "id: two"),
      "schedules/two.yaml": minimalSchedule.replace('"06:00"', "6"),
    });
    const report = await loadBroadcaster(dir);
    expect(report.broadcaster?.services.map((s) => s.id)).toEqual(["one"]);
    expect(report.brokenServices).toEqual(["two"]);
    expect(report.problems.map((p) => [p.severity, p.field])).toEqual([
      ["error", "grid[0].slots[0].start"],
    ]);
  });
});

describe("shortIds: unique across the provider's services", () => {
  async function example(name: string, edit: (provider: string) => string): Promise<string> {
    const dir = join(root, name);
    await cp("data", dir, { recursive: true });
    const path = join(dir, "provider.yaml");
    await writeFile(path, edit(await readFile(path, "utf8")));
    return dir;
  }

  it("gives two services whose ids share a slot two slots, warns to pin the moved one, and re-renders it when it moves", async () => {
    const dir = await example("slots", (text) => `${text}shortIds: unique\n`);
    const { problems, broadcaster } = await loadBroadcaster(dir);
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
    const moved = problems.filter((p) => p.field === "id");
    expect(moved.map((p) => [relative(dir, p.file), p.line, p.column, p.severity])).toEqual([
      ["services/pop.yaml", 2, 1, "warning"],
    ]);
    expect(moved[0]?.message).toBe(
      `its id gives shortIdSlot 10, which service "news" has: it takes 11, the next free one of ${broadcaster?.provider.radiodnsHost}; pin it (shortIdSlot: 11) so that a service added later cannot move it and change its shortIds`,
    );
    const slotsOf = (b: typeof broadcaster) => b?.services.map((s) => [s.id, s.shortIdSlot]);
    expect(slotsOf(broadcaster)).toEqual([
      ["bern", 7],
      ["klassik", 5],
      ["lounge", 2],
      ["news", 10],
      ["pop", 11],
    ]);
    // A service added whose id gives slot 11 and comes first moves pop: pop's files did not
    // change, but its documents must be made again (its sources say so).
    const id = Array.from({ length: 500 }, (_, n) => `a${n}`).find(
      (a) => defaultShortIdSlot(a) === 11,
    );
    if (id === undefined) throw new Error("no id gives slot 11");
    // A web-only service like lounge: no bearer another service has.
    const lounge = await readFile(join(dir, "services", "lounge.yaml"), "utf8");
    await writeFile(
      join(dir, "services", `${id}.yaml`),
      lounge.replace(/^id: lounge$/m, `id: ${id}`),
    );
    await cp(join(dir, "schedules", "lounge.yaml"), join(dir, "schedules", `${id}.yaml`));
    const added = await loadBroadcaster(dir);
    const popOf = (b: typeof broadcaster) => b?.services.find((s) => s.id === "pop");
    expect(slotsOf(added.broadcaster)).toContainEqual(["pop", 12]);
    expect(popOf(added.broadcaster)?.sources).not.toBe(popOf(broadcaster)?.sources);

    const pop = join(dir, "services", "pop.yaml");
    await writeFile(
      pop,
      (await readFile(pop, "utf8")).replace(/^id: pop$/m, "id: pop\nshortIdSlot: 0"),
    );
    const pinned = await loadBroadcaster(dir);
    expect(pinned.problems.filter((p) => p.field === "id" || p.severity === "error")).toEqual([]);
    expect(slotsOf(pinned.broadcaster)).toContainEqual(["pop", 0]);
  });

  it("refuses a slot given to two services of one FQDN, naming the first", async () => {
    const dir = await example("given-slots", (text) => `${text}shortIds: unique\n`);
    for (const id of ["news", "pop"]) {
      const path = join(dir, "services", `${id}.yaml`);
      await writeFile(
        path,
        (await readFile(path, "utf8")).replace(`id: ${id}\n`, `id: ${id}\nshortIdSlot: 4\n`),
      );
    }
    const errors = (await loadBroadcaster(dir)).problems.filter((p) => p.severity === "error");
    expect(errors.map((p) => [relative(dir, p.file), p.field])).toEqual([
      ["services/pop.yaml", "shortIdSlot"],
    ]);
    expect(errors[0]?.message).toMatch(
      /^shortIdSlot 4, as service "news" \(.*news\.yaml\) has under /,
    );
  });
});

describe("fmCountry", () => {
  it("warns when the provider's fmCountry covers FM bearers of two GCCs, until the service sets its own", async () => {
    const dir = join(root, "fm-country");
    await cp("data", dir, { recursive: true });
    const pop = join(dir, "services", "pop.yaml");
    const text = await readFile(pop, "utf8");
    await writeFile(pop, text.replace("fm:4e1.4e02.10170", "fm:1a0.1234.09390"));
    const warned = await loadBroadcaster(dir);
    const warnings = warned.problems.filter((p) => p.message.includes("GCCs"));
    expect(
      warnings.map((p) => [relative(dir, p.file), p.line, p.column, p.field, p.severity]),
    ).toEqual([["provider.yaml", 20, 14, "discovery.fmCountry", "warning"]]);
    expect(warnings[0]?.message).toBe(
      "applies to FM bearers of 2 GCCs, 4e1 (bern), 1a0 (pop): if they are in different countries, give those services their own fmCountry, or a radio there looks them up under ch",
    );
    await writeFile(
      pop,
      text
        .replace("fm:4e1.4e02.10170", "fm:1a0.1234.09390")
        .replace(/^id: pop$/m, "id: pop\nfmCountry: us"),
    );
    const fixed = await loadBroadcaster(dir);
    expect(fixed.problems.filter((p) => p.message.includes("GCCs"))).toEqual([]);
    expect(fixed.broadcaster?.services.find((s) => s.id === "pop")?.fmCountry).toBe("us");
    expect(fixed.broadcaster?.services.find((s) => s.id === "news")?.fmCountry).toBe("ch");
  });
});
