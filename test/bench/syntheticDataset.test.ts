import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AGGREGATOR_EPISODE_EVERY,
  editOneShow,
  SYNTHETIC_HOST,
  syntheticServiceId,
  writeSyntheticDataset,
} from "../../bench/syntheticDataset.js";
import { buildSite } from "../../src/build/buildSite.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";

const NOW = Date.parse("2026-11-23T04:00:00Z");

async function xmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".xml"))
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe("the benchmark's synthetic dataset, at 2 services", () => {
  let root: string;
  let dataDir: string;
  let outDir: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "spi-bench-test-"));
    dataDir = join(root, "data");
    outDir = join(root, "out");
    await writeSyntheticDataset(dataDir, 2);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("builds without problems into schema-valid documents", async () => {
    const summary = await buildSite({ dataDir, outDir, now: NOW });
    expect(summary.problems).toEqual([]);
    expect(summary.services).toBe(2);

    const files = await xmlFiles(outDir);
    const piFolder = (i: number) =>
      `radiodns/spi/3.1/id/${SYNTHETIC_HOST}/${syntheticServiceId(i)}/`;
    // Two SI documents and 17 days of PI per service.
    expect(files.filter((f) => f.startsWith(piFolder(0)))).toHaveLength(17);
    expect(files.filter((f) => f.startsWith(piFolder(1)))).toHaveLength(17);
    expect(files).toHaveLength(2 + 2 * 17);

    const documents = await Promise.all(
      files.map(async (name) => ({ name, xml: await readFile(join(outDir, name), "utf8") })),
    );
    expect(await validateSpiDocuments(documents)).toEqual([]);

    // A full day of half-hour slots, plus the neighbouring days' programmes within the margin.
    const today = documents.find((d) => d.name === `${piFolder(0)}20261123_PI.xml`);
    const programmes = today?.xml.match(/<programme /g) ?? [];
    expect(programmes.length).toBeGreaterThanOrEqual(48);
    // Every airing has its episode's own text, so no programme element is shared.
    const episodeNames = today?.xml.match(/<longName>2026-11-\d\d \d\d:\d\d: show-/g) ?? [];
    expect(episodeNames).toHaveLength(programmes.length);
    const special = documents.find((d) => d.name === `${piFolder(0)}20261125_PI.xml`);
    expect(special?.xml).toContain("<longName>2026-11-25 19:15: show-15 on s0000</longName>");
    expect(special?.xml).toContain("<longName>2026-11-25 21:45: show-11 on s0000</longName>");
  });

  it("edits one service's schedule so that only its documents change", async () => {
    const before = await buildSite({ dataDir, outDir, now: NOW });
    expect(before.written).toBe(0);
    await editOneShow(dataDir, 0);
    const after = await buildSite({ dataDir, outDir, now: NOW });
    expect(after.written).toBe(17);
    const today = await readFile(
      join(
        outDir,
        `radiodns/spi/3.1/id/${SYNTHETIC_HOST}/${syntheticServiceId(0)}/20261123_PI.xml`,
      ),
      "utf8",
    );
    expect(today).toContain("https://www.bench.example/s0000/show-0-edited");
  });
});

describe("the benchmark's aggregator dataset (--aggregator)", () => {
  let root: string;
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("builds without problems with one episode in AGGREGATOR_EPISODE_EVERY of the broadcaster's", async () => {
    root = await mkdtemp(join(tmpdir(), "spi-bench-aggregator-"));
    const episodes = async (shape: "broadcaster" | "aggregator") => {
      const dataDir = join(root, shape);
      await writeSyntheticDataset(dataDir, 1, shape);
      const week = await readFile(join(dataDir, "episodes", "s0000", "2026-11-22.yaml"), "utf8");
      return { dataDir, count: week.split("\n  - date:").length - 1 };
    };
    const broadcaster = await episodes("broadcaster");
    const aggregator = await episodes("aggregator");
    expect(aggregator.count).toBe(Math.ceil(broadcaster.count / AGGREGATOR_EPISODE_EVERY));
    const summary = await buildSite({
      dataDir: aggregator.dataDir,
      outDir: join(root, "out"),
      now: NOW,
    });
    expect(summary.problems).toEqual([]);
  }, 60_000);
});
