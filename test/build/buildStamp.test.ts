import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BuildSources } from "../../src/build/buildFingerprint.js";
import {
  type BuildStamp,
  readUpToDateSite,
  recordBuildStamp,
  recordedSources,
} from "../../src/build/buildStamp.js";
import {
  type BuildState,
  commitBuildState,
  readBuildState,
  STATE_JOURNAL_PATH,
  STATE_PATH,
} from "../../src/build/buildState.js";
import { readInputsRecord } from "../../src/build/inputsRecord.js";
import { writeFileAtomically } from "../../src/publish/writeFileAtomically.js";

const DAY_START = Date.parse("2026-11-22T23:00:00Z");
const DAY_END = Date.parse("2026-11-23T23:00:00Z");
/** A build's sources, told apart here by their keys. */
const sourcesOf = (keys: string, data: Record<string, string> = {}): BuildSources => ({
  program: { code: "c1", runtime: "node 20" },
  dataDir: "data",
  data,
  keys,
});
const stamp: BuildStamp<{ today: string }> = {
  sources: sourcesOf("a1"),
  timeZone: "Europe/Zurich",
  today: "2026-11-23",
  report: { today: "2026-11-23" },
};
const PATHS = ["radiodns/spi/3.1/SI.xml", "radiodns/spi/3.1/id/h/one/20261123_PI.xml"];

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-stamp-"));
  await mkdir(join(outDir, "radiodns/spi/3.1/id/h/one"), { recursive: true });
  await mkdir(join(outDir, "_spi-static"), { recursive: true });
  for (const path of PATHS) await writeFile(join(outDir, path), "<x/>\n");
  stampAndWrite();
});

/** What a build does when it completes: the stamp, in the state it writes. */
function stampAndWrite(): void {
  const state = readBuildState(outDir);
  recordBuildStamp(state, stamp, PATHS);
  commitBuildState(state);
}

/** The next build's check, from the state as it reads it. */
function upToDate(keys: string, now: number, state: BuildState = readBuildState(outDir)) {
  return readUpToDateSite(state, sourcesOf(keys), now);
}

/** state.json with its stamp changed by `change`. */
async function editStamp(change: (stamp: Record<string, unknown>) => unknown): Promise<void> {
  const path = join(outDir, STATE_PATH);
  const state = JSON.parse(await readFile(path, "utf8"));
  await writeFile(path, JSON.stringify({ ...state, stamp: change(state.stamp) }));
}

describe("readUpToDateSite", () => {
  it("says which input changed, from the sources the stamp vouches for", async () => {
    const why: string[] = [];
    const state = readBuildState(outDir);
    const changed = { ...sourcesOf("a1", { "schedules/news.yaml": "file 2" }) };
    changed.program = { ...changed.program, sax: "1.6.2" };
    expect(readUpToDateSite(state, changed, DAY_START, (reason) => why.push(reason))).toBe(
      undefined,
    );
    expect(why).toEqual([expect.stringMatching(/^the program changed: sax none → 1\.6\.2 \(/)]);
    expect(recordedSources(state)).toEqual(stamp.sources);
    // Sources edited in the state are not the stamp's: never read as a change.
    await editStamp((recorded) => ({
      ...(recorded as object),
      sources: sourcesOf("a1", { "provider.yaml": "file 0" }),
    }));
    expect(recordedSources(readBuildState(outDir))).toBeUndefined();
  });

  it("returns the stamped report for the same inputs at any time of the same local day", () => {
    for (const now of [DAY_START, DAY_START + 3_600_000, DAY_END - 1]) {
      expect(upToDate("a1", now)).toMatchObject({
        report: stamp.report,
        files: PATHS,
      });
    }
  });

  it("refuses other inputs, and a clock outside the stamped day", () => {
    expect(upToDate("b2", DAY_START)).toBeUndefined();
    expect(upToDate("a1", DAY_START - 1)).toBeUndefined();
    expect(upToDate("a1", DAY_END)).toBeUndefined();
  });

  it("refuses when a published file was edited in place, even with its size and mtime kept, or deleted", async () => {
    const path = join(outDir, PATHS[0] as string);
    const before = await stat(path);
    await writeFile(path, "<y/>\n");
    await utimes(path, before.atime, before.mtime);
    expect(upToDate("a1", DAY_START)).toBeUndefined();
    stampAndWrite();
    await rm(join(outDir, PATHS[1] as string));
    expect(upToDate("a1", DAY_START)).toBeUndefined();
  });

  it("accepts a file replaced by the same bytes (a CI cache restore gives new inodes)", () => {
    writeFileAtomically(join(outDir, PATHS[0] as string), "<x/>\n");
    expect(upToDate("a1", DAY_START)).toMatchObject({ files: PATHS });
  });

  it("works the day out from the clock: a stamp whose day was moved on does not stop the day roll", async () => {
    const threeDaysOn = DAY_START + 3 * 86_400_000;
    await editStamp((moved) => ({ ...(moved as object), today: "2026-11-26" }));
    expect(upToDate("a1", threeDaysOn)).toBeUndefined();
    const report = { today: "2026-11-26" };
    await editStamp((moved) => ({ ...(moved as object), report }));
    expect(upToDate("a1", threeDaysOn)).toBeUndefined();
    await editStamp((moved) => ({ ...(moved as object), timeZone: 5 }));
    expect(upToDate("a1", DAY_START)).toBeUndefined();
  });

  it("refuses while a killed build's journal is there, without a stamp, and when the stamp is damaged", async () => {
    expect(upToDate("a1", DAY_START)).toBeDefined();
    await writeFile(join(outDir, STATE_JOURNAL_PATH), `owns ${PATHS[0]}\n`);
    expect(upToDate("a1", DAY_START)).toBeUndefined();
    await rm(join(outDir, STATE_JOURNAL_PATH));
    await editStamp(() => null);
    expect(upToDate("a1", DAY_START)).toBeUndefined();
    await editStamp(() => "a1");
    const state = readBuildState(outDir);
    expect(upToDate("a1", DAY_START, state)).toBeUndefined();
    expect(state.notes).toEqual([
      expect.stringMatching(
        /\("stamp"\) is not of its shape: dropped; the build was not taken as up to date/,
      ),
    ]);
  });

  describe("after files it had to hash to find them unchanged", () => {
    afterEach(() => vi.useRealTimers());

    it("records their settled state in the stamp and the documents record, and writes the state only then", async () => {
      // As a full build leaves them: every file written within SETTLED_MS of the state, untrusted.
      const state = readBuildState(outDir);
      const digest = createHash("sha256").update("<x/>\n").digest("hex");
      state.documents = Object.fromEntries(PATHS.map((path) => [path, ["in", "", digest]]));
      commitBuildState(state);
      expect([...readInputsRecord(readBuildState(outDir)).values()]).toEqual(
        PATHS.map(() => ({ inputs: "in", file: { state: "", digest } })),
      );
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + 10_000);
      const site = upToDate("a1", DAY_START);
      expect(site?.refresh).toBeDefined();
      site?.refresh?.();
      const after = readBuildState(outDir);
      for (const { file } of readInputsRecord(after).values()) {
        expect(file).toEqual({ state: expect.stringMatching(/^5 \d+ \d+ \d+:\d+$/), digest });
      }
      const stamped = Object.values((after.stamp as { files: object }).files);
      expect(stamped.map(([fileState]) => fileState)).not.toContain("");
      // Nothing left to learn: the next check hashes nothing and writes nothing.
      expect(upToDate("a1", DAY_START, after)?.refresh).toBeUndefined();
    });
  });
});
