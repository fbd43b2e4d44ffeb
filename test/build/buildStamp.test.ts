import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type BuildStamp,
  forgetBuildStamp,
  readUpToDateSite,
  recordBuildStamp,
} from "../../src/build/buildStamp.js";
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
  recordBuildStamp(outDir, stamp, PATHS);
});

describe("readUpToDateSite", () => {
  it("returns the stamped report for the same inputs at any time of the same local day", () => {
    for (const now of [DAY_START, DAY_START + 3_600_000, DAY_END - 1]) {
      expect(readUpToDateSite(outDir, "a1", now)).toMatchObject({
        report: stamp.report,
        files: PATHS,
      });
    }
  });

  it("refuses other inputs, and a clock outside the stamped day", () => {
    expect(readUpToDateSite(outDir, "b2", DAY_START)).toBeUndefined();
    expect(readUpToDateSite(outDir, "a1", DAY_START - 1)).toBeUndefined();
    expect(readUpToDateSite(outDir, "a1", DAY_END)).toBeUndefined();
  });

  it("refuses when a published file was edited in place, even with its size and mtime kept, or deleted", async () => {
    const path = join(outDir, PATHS[0] as string);
    const before = await stat(path);
    await writeFile(path, "<y/>\n");
    await utimes(path, before.atime, before.mtime);
    expect(readUpToDateSite(outDir, "a1", DAY_START)).toBeUndefined();
    recordBuildStamp(outDir, stamp, PATHS);
    await rm(join(outDir, PATHS[1] as string));
    expect(readUpToDateSite(outDir, "a1", DAY_START)).toBeUndefined();
  });

  it("accepts a file replaced by the same bytes (a CI cache restore gives new inodes)", () => {
    writeFileAtomically(join(outDir, PATHS[0] as string), "<x/>\n");
    expect(readUpToDateSite(outDir, "a1", DAY_START)).toMatchObject({ files: PATHS });
  });

  it("works the day out from the clock: a stamp whose day was moved on does not stop the day roll", async () => {
    const path = join(outDir, "_spi-static/stamp.json");
    const moved = JSON.parse(await readFile(path, "utf8"));
    const threeDaysOn = DAY_START + 3 * 86_400_000;
    await writeFile(path, JSON.stringify({ ...moved, today: "2026-11-26" }));
    expect(readUpToDateSite(outDir, "a1", threeDaysOn)).toBeUndefined();
    const report = { today: "2026-11-26" };
    await writeFile(path, JSON.stringify({ ...moved, today: "2026-11-26", report }));
    expect(readUpToDateSite(outDir, "a1", threeDaysOn)).toBeUndefined();
    await writeFile(path, JSON.stringify({ ...moved, timeZone: 5 }));
    expect(readUpToDateSite(outDir, "a1", DAY_START)).toBeUndefined();
  });

  it("refuses once a build has forgotten the stamp, and when the stamp is damaged", async () => {
    forgetBuildStamp(outDir);
    expect(readUpToDateSite(outDir, "a1", DAY_START)).toBeUndefined();
    await writeFile(join(outDir, "_spi-static/stamp.json"), '{"inputs": "a1", ');
    expect(readUpToDateSite(outDir, "a1", DAY_START)).toBeUndefined();
  });
});
