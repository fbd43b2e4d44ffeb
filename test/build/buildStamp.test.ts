import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { type BuildStamp, readUpToDateSite, recordBuildStamp } from "../../src/build/buildStamp.js";
import {
  type BuildState,
  commitBuildState,
  readBuildState,
  STATE_JOURNAL_PATH,
  STATE_PATH,
} from "../../src/build/buildState.js";
import { writeFileAtomically } from "../../src/publish/writeFileAtomically.js";

const DAY_START = Date.parse("2026-11-22T23:00:00Z");
const DAY_END = Date.parse("2026-11-23T23:00:00Z");
const stamp: BuildStamp<{ today: string }> = {
  inputs: "a1",
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
function upToDate(inputs: string, now: number, state: BuildState = readBuildState(outDir)) {
  return readUpToDateSite(state, inputs, now);
}

/** state.json with its stamp changed by `change`. */
async function editStamp(change: (stamp: Record<string, unknown>) => unknown): Promise<void> {
  const path = join(outDir, STATE_PATH);
  const state = JSON.parse(await readFile(path, "utf8"));
  await writeFile(path, JSON.stringify({ ...state, stamp: change(state.stamp) }));
}

describe("readUpToDateSite", () => {
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
      expect.stringMatching(/\("stamp"\) is not a JSON object: ignored/),
    ]);
  });
});
