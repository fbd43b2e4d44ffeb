import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { readPublishedFiles } from "../outputFolder.js";

/**
 * An output folder kept by spi-static before state.json (manifest.json, versions.json,
 * documents.json, checks.json, digests.json, stamp.json and the two journals) is read once by
 * the next build (src/build/migrateOldState.ts): no owned file becomes foreign, no version
 * drops, and the output is what --force makes.
 */

const root = await mkdtemp(join(tmpdir(), "spi-migrate-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const START = Date.parse("2026-11-23T08:00:00Z");
const NEXT_DAY = START + 86_400_000;
const SI = "radiodns/spi/3.1/SI.xml";
const POP = "radiodns/spi/3.1/id/rdns.aareradio.example/pop/";
let runs = 0;

/** A folder built once (at START), a copy of it, and the data without the pop service. */
async function builtOnce() {
  const dir = join(root, String(runs++));
  const dataDir = join(dir, "data");
  await cp("data", dataDir, { recursive: true });
  const outDir = join(dir, "out");
  await buildSite({ dataDir, outDir, now: START });
  const forced = join(dir, "forced");
  await cp(outDir, forced, { recursive: true });
  await rm(join(dataDir, "services/pop.yaml"));
  await rm(join(dataDir, "schedules/pop.yaml"));
  const state = (name: string) => join(outDir, "_spi-static", name);
  return { dataDir, outDir, forced, state };
}

/**
 * The records as the build before state.json wrote them, from what state.json holds (the same
 * contents, in their old files and shapes); `journaled` files leave the manifest for the
 * ownership journal, as a build killed after creating them leaves them.
 */
async function toOldRecords(outDir: string, journaled: (path: string) => boolean = () => false) {
  const folder = join(outDir, "_spi-static");
  const state = JSON.parse(await readFile(join(folder, "state.json"), "utf8"));
  const write = (name: string, value: unknown) =>
    writeFile(join(folder, name), `${JSON.stringify(value)}\n`);
  const owned: string[] = state.owned;
  await write("manifest.json", {
    generator: "spi-static",
    files: owned.filter((path) => !journaled(path)),
  });
  const inJournal = owned.filter(journaled);
  if (inJournal.length > 0) await writeFile(join(folder, "journal"), `${inJournal.join("\n")}\n`);
  await write("versions.json", { generator: "spi-static", documents: state.versions });
  await write("documents.json", { documents: state.documents });
  await write("checks.json", state.checks);
  await write("digests.json", state.digests);
  await write("stamp.json", state.stamp);
  await rm(join(folder, "state.json"));
  return state;
}

function versionOf(xml: string | undefined): number {
  return Number(/ version="(\d+)"/.exec(xml ?? "")?.[1] ?? 0);
}

describe("an output folder with the records before state.json", () => {
  it("is taken over: every file still owned, a removed service pruned, the output that of --force", async () => {
    const { dataDir, outDir, forced, state } = await builtOnce();
    const before = await readPublishedFiles(outDir);
    await toOldRecords(outDir);

    const migrated = await buildSite({ dataDir, outDir, now: NEXT_DAY });
    expect(migrated).toMatchObject({ upToDate: false, foreign: [], notes: [] });
    expect(migrated.removed).toBeGreaterThan(0);
    // The old stamp is dropped; the other records still save work.
    expect(migrated.reused).toBeGreaterThan(0);
    expect(await readdir(join(outDir, "_spi-static"))).toEqual(["inputs", "state.json"]);
    const after = await readPublishedFiles(outDir);
    expect([...after.keys()].filter((path) => path.startsWith(POP))).toEqual([]);
    for (const [path, xml] of after) {
      expect(versionOf(xml), path).toBeGreaterThanOrEqual(versionOf(before.get(path)));
    }
    const owned = JSON.parse(await readFile(state("state.json"), "utf8")).owned;
    expect(owned).toEqual([...after.keys()].sort());

    await buildSite({ dataDir, outDir: forced, now: NEXT_DAY, force: true });
    expect(after).toEqual(await readPublishedFiles(forced));
    // And from now on as usual: up to date.
    expect(await buildSite({ dataDir, outDir, now: NEXT_DAY + 60_000 })).toMatchObject({
      upToDate: true,
    });
  });

  it("owns what a killed build journaled and keeps the versions it handed out", async () => {
    const { dataDir, outDir, forced } = await builtOnce();
    const before = await readPublishedFiles(outDir);
    // The pop service's files were created by a killed build: only the journal knows them.
    const state = await toOldRecords(outDir, (path) => path.startsWith(POP));
    // That build also handed out a higher version of SI.xml before it was killed.
    const journaledSi = state.versions[SI].version + 5;
    await writeFile(join(outDir, "_spi-static/versions.journal"), `${journaledSi} ${SI}\n`);

    const migrated = await buildSite({ dataDir, outDir, now: NEXT_DAY });
    expect(migrated).toMatchObject({ foreign: [], notes: [] });
    const after = await readPublishedFiles(outDir);
    expect([...after.keys()].filter((path) => path.startsWith(POP))).toEqual([]);
    expect([...before.keys()].filter((path) => path.startsWith(POP)).length).toBeGreaterThan(0);
    // SI.xml changed (pop is gone): above every version the killed build may have published.
    expect(versionOf(after.get(SI))).toBe(journaledSi + 1);

    await buildSite({ dataDir, outDir: forced, now: NEXT_DAY, force: true });
    const expected = await readPublishedFiles(forced);
    expect([...after.keys()]).toEqual([...expected.keys()]);
    for (const [path, xml] of expected) {
      if (path === SI) continue;
      expect(after.get(path) === xml, path).toBe(true);
    }
  });

  it("refuses a damaged old manifest as it did, naming it", async () => {
    const { dataDir, outDir, state } = await builtOnce();
    await toOldRecords(outDir);
    await writeFile(state("manifest.json"), '{"files": 5}');
    await expect(buildSite({ dataDir, outDir, now: NEXT_DAY })).rejects.toThrow(
      `${state("manifest.json")} is damaged: it has no "files" list. Nothing was written. Delete it`,
    );
  });
});
