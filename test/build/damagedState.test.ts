import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { readPublishedFiles } from "../outputFolder.js";

/**
 * The state in out/_spi-static/ is checked, never trusted (issue 23): a damaged file the build
 * cannot go on without stops it with the file, what is wrong and what to do, and nothing
 * written; a damaged record that only saves work is named and ignored.
 */

const root = await mkdtemp(join(tmpdir(), "spi-damaged-state-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const START = Date.parse("2026-11-23T08:00:00Z");
const NEXT_DAY = START + 86_400_000;
let runs = 0;

async function builtOnce() {
  const dir = join(root, String(runs++));
  const dataDir = join(dir, "data");
  await cp("data", dataDir, { recursive: true });
  const outDir = join(dir, "out");
  const build = (now: number, force = false) => buildSite({ dataDir, outDir, now, force });
  await build(START);
  const state = (name: string) => join(outDir, "_spi-static", name);
  const asFolder = async (name: string) => {
    await rm(state(name), { force: true });
    await mkdir(state(name));
  };
  return { dir, dataDir, outDir, build, state, asFolder };
}

/** state.json with one part replaced. */
async function withPart(path: string, part: string, value: unknown): Promise<void> {
  const state = JSON.parse(await readFile(path, "utf8"));
  await writeFile(path, JSON.stringify({ ...state, [part]: value }));
}

describe("a damaged file the build cannot go on without", () => {
  it.each([
    [
      "state.journal",
      "3,000 random bytes",
      (path: string) => writeFile(path, randomBytes(3000)),
      /line \d+ is not "owns <path>" or "version <number> <path>"/,
    ],
    ["state.json", "not JSON", (path: string) => writeFile(path, "{ nope"), /not valid JSON/],
    [
      "state.json",
      "3,000 random bytes",
      (path: string) => writeFile(path, randomBytes(3000)),
      /not valid JSON/,
    ],
    [
      "state.json",
      "no owned list",
      (path: string) => withPart(path, "owned", 5),
      /"owned": it has no list of owned files/,
    ],
    [
      "state.json",
      "no version records",
      (path: string) => withPart(path, "versions", 5),
      /"versions": it has no version records/,
    ],
    [
      "state.json",
      "a version record that is not one",
      (path: string) => withPart(path, "versions", { "radiodns/spi/3.1/SI.xml": { version: -1 } }),
      /"versions": the entry for "radiodns\/spi\/3.1\/SI.xml" is not a version record/,
    ],
    [
      "state.json",
      "another format",
      (path: string) => withPart(path, "formatVersion", 2),
      /its formatVersion is 2, which this spi-static does not know/,
    ],
  ])(
    "%s (%s) stops it, naming the file, what is wrong and what to do",
    async (name, _what, damage, problem) => {
      const { build, state, outDir } = await builtOnce();
      await damage(state(name));
      const before = await readPublishedFiles(outDir);
      const failed = build(NEXT_DAY);
      await expect(failed).rejects.toThrow(`${state(name)} is damaged`);
      await expect(failed).rejects.toThrow(problem);
      await expect(failed).rejects.toThrow(/Nothing was written\. Delete it to/);
      // Only readable text: none of the damaged bytes sprayed into the message.
      await failed.catch((error: Error) => {
        expect(error.message).toMatch(/^[\x20-\x7e]+$/);
        expect(error.message.length).toBeLessThan(400);
      });
      expect(await readPublishedFiles(outDir)).toEqual(before);
      // Doing what it says lets the next build go on.
      await rm(state(name), { force: true });
      await expect(build(NEXT_DAY)).resolves.toMatchObject({ upToDate: false });
    },
  );

  it("stops it when the state is a folder, with what to do instead of EISDIR alone", async () => {
    const { build, state, asFolder } = await builtOnce();
    await asFolder("state.json");
    await expect(build(NEXT_DAY)).rejects.toThrow(
      `${state("state.json")} is damaged: it is a folder, not a file. Nothing was written. Delete it`,
    );
  });

  it("takes a journal line a kill cut short for a file that never appeared", async () => {
    const { build, state } = await builtOnce();
    await writeFile(
      state("state.journal"),
      "owns radiodns/spi/3.1/id/rdns.aareradio.example/pop/2026",
    );
    await expect(build(NEXT_DAY)).resolves.toMatchObject({ upToDate: false });
  });
});

describe("a damaged part that only saves work", () => {
  it.each([
    ["checks", "a number", 5],
    ["digests", "a list", [1, 2]],
    ["documents", "text", "[1, 2"],
    ["checks", "missing", undefined],
    ["stamp", "a number", 5],
  ])("%s (%s) is named and ignored: the output is that of --force", async (part, _what, value) => {
    const { build, state, outDir, dir, dataDir } = await builtOnce();
    await withPart(state("state.json"), part, value);
    const summary = await build(NEXT_DAY);
    expect(summary.notes).toEqual([
      expect.stringContaining(`${state("state.json")} ("${part}") is`),
    ]);
    expect(summary.notes[0]).toMatch(/ignored; the work it saves was done again/);
    // Written anew: the next build has nothing to say.
    expect((await build(NEXT_DAY + 60_000)).notes).toEqual([]);
    const forced = join(dir, "forced");
    await buildSite({ dataDir, outDir: forced, now: START });
    await buildSite({ dataDir, outDir: forced, now: NEXT_DAY, force: true });
    expect(await readPublishedFiles(outDir)).toEqual(await readPublishedFiles(forced));
  });

  it("is rewritten even on the day the site is up to date", async () => {
    const { build, state } = await builtOnce();
    await withPart(state("state.json"), "digests", 5);
    const summary = await build(START + 60_000);
    expect(summary).toMatchObject({
      upToDate: false,
      notes: [expect.stringContaining('("digests")')],
    });
    expect(await build(START + 120_000)).toMatchObject({ upToDate: true, notes: [] });
  });

  it("a stamp listing no files is never up to date", async () => {
    const { build, state } = await builtOnce();
    const { stamp } = JSON.parse(await readFile(state("state.json"), "utf8"));
    await withPart(state("state.json"), "stamp", { ...stamp, files: 5 });
    expect(await build(START + 60_000)).toMatchObject({ upToDate: false });
    expect(await build(START + 120_000)).toMatchObject({ upToDate: true });
  });
});

describe("a build whose state cannot be written", () => {
  it("prunes nothing: the files it would have removed are still there", async () => {
    const { build, state, outDir, dataDir } = await builtOnce();
    const before = await readPublishedFiles(outDir);
    let blocked = false;
    // Once every document is written: a folder where state.json is to be replaced.
    const blockState = () => {
      renameSync(state("state.json"), state("kept.json"));
      mkdirSync(state("state.json"));
      writeFileSync(state("state.json/in-the-way"), "");
      blocked = true;
    };
    // Nine days on: a build that drops nine days of every service.
    const failed = buildSite({
      dataDir,
      outDir,
      now: START + 9 * 86_400_000,
      publish: {
        onProgress: (progress) => {
          if (!blocked && progress.rendered + progress.reused >= before.size) blockState();
        },
      },
    });
    await expect(failed).rejects.toThrow(`cannot write ${state("state.json")}`);
    const after = await readPublishedFiles(outDir);
    for (const path of before.keys()) expect(after.has(path), path).toBe(true);
    // The state writable again, the next build prunes them.
    await rm(state("state.json"), { recursive: true });
    renameSync(state("kept.json"), state("state.json"));
    const next = await build(START + 9 * 86_400_000 + 60_000);
    expect(next.removed).toBeGreaterThan(0);
  });
});
