import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { SETTLED_MS } from "../../src/build/fileState.js";
import { partSum } from "../../src/build/stateParts.js";
import { readPublishedFiles } from "../outputFolder.js";

/**
 * The state in out/_spi-static/ is checked, never trusted (issues 23, 33): damage never stops a
 * build and is never read as a change of the data: a damaged part is dropped, its work done
 * again, and said with what the build did instead; only a state it cannot read at all (a folder)
 * or of a format it does not know stops it, with the file, what is wrong and what to do.
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

/** state.json with one part replaced; `summed`: with its sum mended too. */
async function withPart(
  path: string,
  part: string,
  value: unknown,
  { summed = false } = {},
): Promise<void> {
  const state = JSON.parse(await readFile(path, "utf8"));
  const sums = summed ? { ...state.sums, [part]: partSum(JSON.stringify(value)) } : state.sums;
  await writeFile(path, JSON.stringify({ ...state, [part]: value, sums }));
}

describe("damage never stops a build", () => {
  it.each([
    [
      "state.journal",
      "3,000 random bytes",
      (path: string) => writeFile(path, randomBytes(3000)),
      /state\.journal: \d+ of its \d+ lines are not "owns <path>" or "version <number> <path>": dropped;/,
    ],
    [
      "state.json",
      "cut short",
      async (path: string) => writeFile(path, (await readFile(path)).subarray(0, 300)),
      /state\.json is not a JSON object \(cut short or damaged\): dropped whole; the build went on as a first build would/,
    ],
    [
      "state.json",
      "3,000 random bytes",
      (path: string) => writeFile(path, randomBytes(3000)),
      /state\.json is not a JSON object/,
    ],
    [
      "state.json",
      "no owned list",
      (path: string) => withPart(path, "owned", 5),
      /\("owned"\) is not of its shape: dropped; the files earlier builds wrote and this one does not write again count as foreign/,
    ],
    [
      "state.json",
      "a version record that is not one",
      (path: string) => withPart(path, "versions", { "radiodns/spi/3.1/SI.xml": { version: -1 } }),
      /\("versions"\) is not of its shape: dropped; versions go on from the published files' own/,
    ],
  ])(
    "%s (%s): the build goes on, says what it dropped and did instead, and versions never go back",
    async (_name, _what, damage, note) => {
      const { build, state, outDir } = await builtOnce();
      const before = await readPublishedFiles(outDir);
      await damage(state(_name));
      const summary = await build(NEXT_DAY);
      expect(summary).toMatchObject({ upToDate: false, notes: [expect.stringMatching(note)] });
      // Only readable text: none of the damaged bytes sprayed into the note.
      expect(summary.notes[0]).toMatch(/^[\x20-\x7e]+$/);
      const after = await readPublishedFiles(outDir);
      for (const [path, content] of after) {
        const version = /version="(\d+)"/.exec(content.toString())?.[1];
        const earlier = /version="(\d+)"/.exec(before.get(path)?.toString() ?? "")?.[1];
        if (version && earlier)
          expect(Number(version), path).toBeGreaterThanOrEqual(Number(earlier));
      }
      // Written anew: the next build has nothing to say.
      expect((await build(NEXT_DAY + 60_000)).notes).toEqual([]);
    },
  );

  it("a flipped byte in a data file's digest is dropped with its part, never read as the file changing", async () => {
    const { build, state } = await builtOnce();
    // A digest is kept only for a data file settled before the build began (fileState.ts).
    await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 100));
    await build(NEXT_DAY);
    const text = await readFile(state("state.json"), "utf8");
    const digests = JSON.parse(text).digests as Record<string, [string, string]>;
    const [, digest] = Object.values(digests)[0] as [string, string];
    const flipped = `${digest[0] === "0" ? "1" : "0"}${digest.slice(1)}`;
    await writeFile(state("state.json"), text.replace(digest, flipped));
    // The same day: only the digests are wrong, so the data is what the stamp was made from.
    const summary = await build(NEXT_DAY + 60_000);
    expect(summary.notes).toEqual([
      expect.stringMatching(
        /\("digests"\) does not match its sum .*: dropped; every data file was read and hashed again/,
      ),
    ]);
    expect(summary.problems.filter(({ severity }) => severity === "error")).toEqual([]);
    expect(await build(NEXT_DAY + 120_000)).toMatchObject({ upToDate: true, notes: [] });
  });

  it("a recorded error is checked again, never replayed: an edited check does not fail a nightly", async () => {
    const { build, state } = await builtOnce();
    const path = state("state.json");
    const checks = JSON.parse(await readFile(path, "utf8")).checks;
    const [id] = Object.keys(checks) as [string];
    const invented = {
      file: "data/services/invented.yaml",
      line: 1,
      column: 1,
      field: "",
      severity: "error",
      message: "invented",
    };
    // Where a nightly takes it as found: what reading the service's episodes found.
    checks[id].check.problems.push(invented);
    checks[id].check.dayByDay.load.push(invented);
    // As an editor who also mends the sum would leave it: it passes every check of its shape.
    await withPart(path, "checks", checks, { summed: true });
    const summary = await build(NEXT_DAY);
    expect(summary.notes).toEqual([]);
    expect(JSON.stringify(summary.problems)).not.toContain("invented");
  });

  it("a check of another shape is dropped, never printed as undefined:undefined:undefined", async () => {
    const { build, state } = await builtOnce();
    const path = state("state.json");
    const checks = JSON.parse(await readFile(path, "utf8")).checks;
    for (const entry of Object.values(checks) as { check: { problems: unknown[] } }[]) {
      entry.check.problems.push({ severity: "warning" });
    }
    await withPart(path, "checks", checks, { summed: true });
    const summary = await build(NEXT_DAY);
    expect(summary.notes).toEqual([
      expect.stringMatching(
        /\("checks"\) is not of its shape: dropped; every service was laid out and checked again/,
      ),
    ]);
    expect(JSON.stringify(summary.problems)).not.toContain("undefined");
    expect(
      summary.problems.every(({ file, line }) => file !== undefined && line !== undefined),
    ).toBe(true);
  });

  it("stops, naming the file and what to do, only at a format it does not know", async () => {
    const { build, state, outDir } = await builtOnce();
    await withPart(state("state.json"), "formatVersion", 2);
    const before = await readPublishedFiles(outDir);
    await expect(build(NEXT_DAY)).rejects.toThrow(
      /state\.json is damaged: its formatVersion is 2, which this spi-static does not know .*Nothing was written\. Build with the spi-static that wrote it, or delete it/,
    );
    expect(await readPublishedFiles(outDir)).toEqual(before);
  });

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
    await expect(build(NEXT_DAY)).resolves.toMatchObject({ upToDate: false, notes: [] });
  });
});

describe("a damaged part that only saves work", () => {
  it.each([
    ["checks", "a number", 5],
    ["digests", "a list", [1, 2]],
    ["documents", "text", "[1, 2"],
    ["checks", "missing", undefined],
    ["stamp", "a number", 5],
  ])("%s (%s) is named and dropped: the output is that of --force", async (part, _what, value) => {
    const { build, state, outDir, dir, dataDir } = await builtOnce();
    await withPart(state("state.json"), part, value);
    const summary = await build(NEXT_DAY);
    expect(summary.notes).toEqual([
      expect.stringContaining(`${state("state.json")} ("${part}") is`),
    ]);
    expect(summary.notes[0]).toMatch(/: dropped; .*; it is written anew$/);
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
