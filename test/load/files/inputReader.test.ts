import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import type { InputCache } from "../../../src/load/files/inputCache.js";
import type { InputReaderOptions } from "../../../src/load/files/inputReader.js";
import { type LoadReport, loadBroadcaster } from "../../../src/load/loadBroadcaster.js";
import type { InputProblem } from "../../../src/load/text/inputProblem.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-reader-"));
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

/** An input cache in memory that counts what it was asked. */
function memoryCache(entries = new Map<string, Uint8Array>()) {
  const counts = { hits: 0, misses: 0, writes: 0 };
  const cache: InputCache = {
    keyOf: (fileDigest) => fileDigest,
    has(key) {
      if (entries.has(key)) counts.hits++;
      else counts.misses++;
      return entries.has(key);
    },
    read: (key) => entries.get(key),
    write(key, serialized) {
      counts.writes++;
      entries.set(key, serialized);
    },
  };
  return { cache, counts, entries };
}

/** The report with each service's episodes loaded, as the schedule stage loads them. */
function withEpisodesLoaded(report: LoadReport) {
  const episodeProblems: InputProblem[] = [];
  const services = report.broadcaster?.services.map((service) => ({
    ...service,
    schedule: { ...service.schedule, episodes: service.schedule.episodes.load(episodeProblems) },
  }));
  return { ...report, broadcaster: { ...report.broadcaster, services }, episodeProblems };
}

async function copyOf(source: string, name: string): Promise<string> {
  const dir = join(root, name);
  await cp(source, dir, { recursive: true });
  return dir;
}

describe("the input cache", () => {
  it("gives the same model and problems, located alike, as parsing every file", async () => {
    // data/ has episodes and two warnings, which are located in files known from the cache.
    const { cache, counts } = memoryCache();
    const parsed = await loadBroadcaster("data", { cache });
    expect(counts.hits).toBe(0);
    expect(counts.writes).toBeGreaterThan(5);
    expect(parsed.problems.map((p) => p.severity)).toEqual(["warning", "warning"]);

    const writes = counts.writes;
    const fromCache = await loadBroadcaster("data", { cache });
    expect(counts.hits).toBe(writes);
    expect(counts.writes).toBe(writes);
    expect(withEpisodesLoaded(fromCache)).toEqual(withEpisodesLoaded(parsed));
  });

  it("keeps no file with errors, and parses a file again once its text changed", async () => {
    const dir = await copyOf("test/fixtures/minimal", "errors");
    const schedulePath = join(dir, "schedules/one.yaml");
    const schedule = await readFile(schedulePath, "utf8");
    await writeFile(schedulePath, schedule.replace('start: "06:00"', 'start: "6 o\'clock"'));
    const { cache, entries } = memoryCache();
    const broken = await loadBroadcaster(dir, { cache });
    expect(broken.problems.some((p) => p.file.endsWith("schedules/one.yaml"))).toBe(true);
    // Every file but the schedule is kept.
    const files = await readdir(dir, { recursive: true });
    expect(entries.size).toBe(files.filter((name) => name.endsWith(".yaml")).length - 1);

    await writeFile(schedulePath, schedule);
    const mended = await loadBroadcaster(dir, { cache });
    expect(mended.problems).toEqual([]);
    expect(withEpisodesLoaded(mended)).toEqual(withEpisodesLoaded(await loadBroadcaster(dir)));
  });

  it("parses a file again when its cached value cannot be read", async () => {
    const { cache, entries } = memoryCache();
    await loadBroadcaster("test/fixtures/minimal", { cache });
    for (const key of entries.keys()) entries.set(key, Uint8Array.from([0xff, 0x0d, 0x01]));
    const report = await loadBroadcaster("test/fixtures/minimal", { cache });
    expect(withEpisodesLoaded(report)).toEqual(
      withEpisodesLoaded(await loadBroadcaster("test/fixtures/minimal")),
    );
  });
});

describe("parsing in worker threads", () => {
  // Workers start only from the compiled worker script: the test runs the compiled loader.
  const compiled = (): Promise<{
    loadBroadcaster(dir: string, options?: InputReaderOptions): Promise<LoadReport>;
  }> => import(new URL("../../../dist/load/loadBroadcaster.js", import.meta.url).href);

  it("reports the same model and problems as the main thread, whatever the worker count", async () => {
    const { loadBroadcaster: compiledLoad } = await compiled();
    const dir = await copyOf("data", "workers");
    // One file with a syntax error and one with schema errors, so problems come from workers too.
    await writeFile(join(dir, "services/lounge.yaml"), "id: lounge\nname: [unclosed\n");
    const klassik = join(dir, "schedules/klassik.yaml");
    await writeFile(klassik, (await readFile(klassik, "utf8")).replace(/start: /, "start: 99"));
    vi.stubEnv("SPI_STATIC_DEBUG", "load");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);

    const onMainThread = await compiledLoad(dir, { jobs: 1 });
    const reports = [];
    for (const jobs of [2, 3]) {
      reports.push(await compiledLoad(dir, { jobs, parseWorkersFromBytes: 0 }));
    }
    const said = stderr.mock.calls.map(([text]) => String(text)).join("");
    expect(said).toMatch(/parsed in 2 worker threads/);
    expect(said).toMatch(/parsed in 3 worker threads/);
    expect(onMainThread.problems.length).toBeGreaterThan(2);
    for (const report of reports) {
      expect(withEpisodesLoaded(report)).toEqual(withEpisodesLoaded(onMainThread));
    }
  });
});
