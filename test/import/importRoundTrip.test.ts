import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { writeSyntheticDataset } from "../../bench/syntheticDataset.js";
import { buildSite } from "../../src/build/buildSite.js";
import { importToDataFolder } from "../../src/import/importToDataFolder.js";
import { siteProgrammes } from "./programmeFacts.js";
import { expectSameLogos, publishedLogos } from "./siteLogos.js";

const EXAMPLE = new URL("../../data", import.meta.url).pathname;
const NOW = Date.parse("2026-11-23T08:00:00Z");
const KEY = "import-test-key-0000000001";

/** Builds `dataDir`, imports the output, builds the import: both sites and the import's result. */
async function roundTrip(
  dataDir: string,
  serviceTimeZones: Record<string, string> = {},
  downloadLogos?: { timeoutMs: number },
) {
  const work = await mkdtemp(join(tmpdir(), "spi-import-"));
  const original = join(work, "out");
  const imported = join(work, "data");
  const rebuilt = join(work, "out-again");
  await buildSite({ dataDir, outDir: original, now: NOW, keys: { keysList: KEY } });
  const result = await importToDataFolder({
    from: { files: [original] },
    dataDir: imported,
    timeZone: "Europe/Zurich",
    serviceTimeZones,
    now: NOW,
    force: false,
    downloadLogos,
  });
  await buildSite({ dataDir: imported, outDir: rebuilt, now: NOW, keys: { keysList: KEY } });
  return { original, imported, rebuilt, result };
}

describe("importing spi-static's own build of the example broadcaster", () => {
  let trip: Awaited<ReturnType<typeof roundTrip>>;
  beforeAll(async () => {
    trip = await roundTrip(EXAMPLE);
  });

  it("writes a valid data folder and has nothing to report but where the site is served and its logos", () => {
    expect(trip.result.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(trip.result.notes.map((n) => n.message)).toEqual([
      "the logos are spi-static's own, served from spi.aareradio.example: discovery.host (where the site is served) is set to it",
      "the logos stay URLs on spi.aareradio.example, where this data's build will be served: it publishes none for them, so they answer 404 once it replaces the site; --download-logos takes them from the imported copy as logo sources",
    ]);
    expect(trip.result.services).toBe(5);
  });

  it("without --download-logos, publishes none of the logos its SI names (the note's 404)", async () => {
    const logos = await publishedLogos(trip.rebuilt);
    expect(logos).toHaveLength(30);
    expect(logos.filter((logo) => logo.bytes !== undefined)).toEqual([]);
  });

  it("with --download-logos, takes the logos from the imported folder and publishes every one again", async () => {
    const withLogos = await roundTrip(EXAMPLE, {}, { timeoutMs: 15_000 });
    expect(withLogos.result.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(withLogos.result.notes.map((n) => n.message)).toEqual([
      "the logos are spi-static's own, served from spi.aareradio.example: discovery.host (where the site is served) is set to it",
    ]);
    const bern = parse(await readFile(join(withLogos.imported, "services/bern.yaml"), "utf8"));
    expect(bern.logo.source).toBe("logos/services/bern/600x600.png");
    await expectSameLogos(withLogos.original, withLogos.rebuilt);
  });

  it("keeps discovery.host, which only the logos' URLs tell", async () => {
    const provider = parse(await readFile(join(trip.imported, "provider.yaml"), "utf8"));
    const example = parse(await readFile(join(EXAMPLE, "provider.yaml"), "utf8"));
    expect(provider.discovery.host).toBe(example.discovery.host);
  });

  it("builds again into the same programmes: times, names, descriptions, images and links", async () => {
    const before = await siteProgrammes(trip.original);
    const after = await siteProgrammes(trip.rebuilt);
    expect([...after.keys()].sort()).toEqual(["bern", "klassik", "lounge", "news", "pop"]);
    for (const [service, programmes] of before) {
      expect(programmes.length, service).toBeGreaterThan(100);
      expect(after.get(service), service).toEqual(programmes);
    }
  });

  it("builds again into the same SI documents, open and keyed", async () => {
    for (const path of ["radiodns/spi/3.1/SI.xml", "_keyed/radiodns/spi/3.1/SI.xml"]) {
      const [before, after] = await Promise.all(
        [trip.original, trip.rebuilt].map((out) => readFile(join(out, path), "utf8")),
      );
      expect(after, path).toBe(before);
    }
  });

  it("gives a service the language of its PI documents, and its other languages as translations", async () => {
    const klassik = parse(await readFile(join(trip.imported, "services/klassik.yaml"), "utf8"));
    expect(klassik.language).toBe("de");
    expect(klassik.name.long).toBe("Aare Klassik – Musik, die bleibt");
    expect(Object.keys(klassik.translations)).toEqual(["en", "fr"]);
    expect(klassik.translations.en.name).toEqual({
      short: "Classics",
      medium: "Aare Classics",
      long: "Aare Classics – Music that stays",
    });
  });

  it("finds the weekly grid and lays the one-off programmes over it as specials", async () => {
    const bern = parse(await readFile(join(trip.imported, "schedules/bern.yaml"), "utf8"));
    expect(bern.grid.map((g: { days: unknown }) => g.days)).toEqual([
      "mon-thu",
      "fri",
      "sat",
      "sun",
    ]);
    expect(bern.dates).toEqual([
      {
        date: "2026-11-23",
        specials: [{ start: "05:00", end: "11:00", show: "zibelemaerit" }],
      },
    ]);
    const news = parse(await readFile(join(trip.imported, "schedules/news.yaml"), "utf8"));
    expect(news.grid.map((g: { days: unknown }) => g.days)).toEqual(["mon-fri", "sat-sun"]);
    expect(news.dates).toEqual([
      {
        date: "2026-11-29",
        specials: [{ start: "17:00", end: "23:30", show: "election-night" }],
      },
    ]);
  });
});

describe("importing spi-static's build of the synthetic benchmark broadcaster", () => {
  it("builds again into the same programmes for every service, each in its own zone", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "spi-import-bench-"));
    // s0003 is in London, s0004 in New York; the others in the provider's Zurich.
    await writeSyntheticDataset(dataDir, 5);
    const trip = await roundTrip(dataDir, { s0003: "Europe/London", s0004: "America/New_York" });
    expect(trip.result.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(trip.result.notes).toEqual([]);
    const before = await siteProgrammes(trip.original);
    const after = await siteProgrammes(trip.rebuilt);
    expect(before.size).toBe(5);
    for (const [service, programmes] of before) {
      expect(programmes.length, service).toBeGreaterThan(700);
      expect(after.get(service), service).toEqual(programmes);
    }
    const schedule = parse(await readFile(join(trip.imported, "schedules/s0000.yaml"), "utf8"));
    expect(schedule.grid.map((g: { days: unknown }) => g.days)).toEqual(["mon-fri", "sat-sun"]);
    expect(schedule.grid[0].slots).toHaveLength(48);
    expect(schedule.dates).toEqual([
      { date: "2026-11-25", specials: [{ start: "19:15", end: "21:45", show: "group-15" }] },
    ]);
    // In its own zone, New York's grid is the one its broadcaster wrote: the special at 19:15.
    const newYork = parse(await readFile(join(trip.imported, "schedules/s0004.yaml"), "utf8"));
    expect(newYork.dates).toEqual(schedule.dates);
    const service = parse(await readFile(join(trip.imported, "services/s0004.yaml"), "utf8"));
    expect(service.timeZone).toBe("America/New_York");
    // Two builds of 5 services × 17 days and an import: about 50 s on the shared 2-core machine.
  }, 180_000);
});
