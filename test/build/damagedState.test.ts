import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
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

describe("a damaged file the build cannot go on without", () => {
  it.each([
    [
      "journal",
      "3,000 random bytes",
      (path: string) => writeFile(path, randomBytes(3000)),
      /line \d+ is not a path/,
    ],
    ["manifest.json", "not JSON", (path: string) => writeFile(path, "{ nope"), /not valid JSON/],
    [
      "manifest.json",
      "no list",
      (path: string) => writeFile(path, '{"files": 5}'),
      /no "files" list/,
    ],
    ["versions.json", "not JSON", (path: string) => writeFile(path, "{ nope"), /not valid JSON/],
    [
      "versions.json",
      "no object",
      (path: string) => writeFile(path, '{"documents": 5}'),
      /no "documents"/,
    ],
    [
      "versions.journal",
      "random bytes",
      (path: string) => writeFile(path, randomBytes(3000)),
      /line \d+ is not/,
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

  it("stops it when one is a folder, with what to do instead of EISDIR alone", async () => {
    for (const name of ["manifest.json", "versions.json"]) {
      const { build, state, asFolder } = await builtOnce();
      await asFolder(name);
      await expect(build(NEXT_DAY)).rejects.toThrow(
        `${state(name)} is damaged: it is a folder, not a file. Nothing was written. Delete it`,
      );
    }
  });

  it("takes a journal line a kill cut short for a file that never appeared", async () => {
    const { build, state } = await builtOnce();
    await writeFile(state("journal"), "radiodns/spi/3.1/id/rdns.aareradio.example/pop/2026");
    await expect(build(NEXT_DAY)).resolves.toMatchObject({ upToDate: false });
  });
});

describe("a damaged record that only saves work", () => {
  it.each([
    ["checks.json", "a folder"],
    ["digests.json", "a folder"],
    ["documents.json", "a folder"],
    ["checks.json", "not JSON"],
    ["documents.json", "not JSON"],
  ])("%s (%s) is named and ignored: the output is that of --force", async (name, what) => {
    const { build, state, asFolder, outDir, dir, dataDir } = await builtOnce();
    if (what === "a folder") await asFolder(name);
    else await writeFile(state(name), "[1, 2");
    const summary = await build(NEXT_DAY);
    expect(summary.notes).toEqual([expect.stringContaining(`${state(name)} is`)]);
    expect(summary.notes[0]).toMatch(/ignored; the work it saves was done again/);
    // Written anew: the next build has nothing to say.
    expect((await build(NEXT_DAY + 60_000)).notes).toEqual([]);
    const forced = join(dir, "forced");
    await buildSite({ dataDir, outDir: forced, now: START });
    await buildSite({ dataDir, outDir: forced, now: NEXT_DAY, force: true });
    expect(await readPublishedFiles(outDir)).toEqual(await readPublishedFiles(forced));
  });

  it("a stamp listing no files, or a folder in its place, is never up to date", async () => {
    const { build, state, asFolder } = await builtOnce();
    const stamp = JSON.parse(await readFile(state("stamp.json"), "utf8"));
    await writeFile(state("stamp.json"), JSON.stringify({ ...stamp, files: 5 }));
    expect(await build(START + 60_000)).toMatchObject({ upToDate: false });
    await asFolder("stamp.json");
    expect(await build(START + 120_000)).toMatchObject({ upToDate: false });
    expect(await build(START + 180_000)).toMatchObject({ upToDate: true });
  });
});

describe("a build whose state cannot be written", () => {
  it("prunes nothing: the files it would have removed are still there", async () => {
    const { build, state, outDir, dataDir } = await builtOnce();
    const before = await readPublishedFiles(outDir);
    let blocked = false;
    // Once every document is written: a folder where versions.json is to be replaced.
    const blockVersions = () => {
      rmSync(state("versions.json"));
      mkdirSync(state("versions.json"));
      writeFileSync(state("versions.json/in-the-way"), "");
      blocked = true;
    };
    // Nine days on: a build that drops nine days of every service.
    const failed = buildSite({
      dataDir,
      outDir,
      now: START + 9 * 86_400_000,
      publish: {
        onProgress: (progress) => {
          if (!blocked && progress.rendered + progress.reused >= before.size) blockVersions();
        },
      },
    });
    await expect(failed).rejects.toThrow(`cannot write ${state("versions.json")}`);
    const after = await readPublishedFiles(outDir);
    for (const path of before.keys()) expect(after.has(path), path).toBe(true);
    // The state writable again, the next build prunes them.
    await rm(state("versions.json"), { recursive: true });
    const next = await build(START + 9 * 86_400_000 + 60_000);
    expect(next.removed).toBeGreaterThan(0);
  });
});
