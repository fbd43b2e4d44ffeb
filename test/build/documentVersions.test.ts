import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { STATE_JOURNAL_PATH, STATE_PATH } from "../../src/build/buildState.js";
import { decideVersion, VERSION_EPOCH, versionFloor } from "../../src/build/documentVersions.js";
import { publishSite } from "../../src/build/publishSite.js";
import { STATE_DIR } from "../../src/build/stateFolder.js";
import type { SiteDocument } from "../../src/site/siteContract.js";

const SI = "radiodns/spi/3.1/SI.xml";
const NEWS = "radiodns/spi/3.1/id/rdns.example/news/20261123_PI.xml";
const POP = "radiodns/spi/3.1/id/rdns.example/pop/20261123_PI.xml";

/** A document as render makes it: a creationTime, no version. */
function pi(path: string, title: string, creationTime = "2026-11-23T04:00:00Z"): SiteDocument {
  return {
    path,
    content: Buffer.from(
      `<epg xml:lang="de"><schedule creationTime="${creationTime}" originator="A"><p>${title}</p></schedule></epg>\n`,
    ),
  };
}

function si(services: string, creationTime = "2026-11-23T04:00:00Z"): SiteDocument {
  return {
    path: SI,
    content: Buffer.from(
      `<serviceInformation xml:lang="de" creationTime="${creationTime}" originator="A">${services}</serviceInformation>\n`,
    ),
  };
}

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-versions-"));
});

async function versionOf(path: string): Promise<string | undefined> {
  const text = await readFile(join(outDir, path), "utf8");
  return /<(?:schedule|serviceInformation)[^>]* creationTime="[^"]*" version="(\d+)"/.exec(
    text,
  )?.[1];
}

const night = (day: number) => `2026-11-${day}T04:00:00Z`;

describe("document versions", () => {
  it("start at 1, rise by one when a document's content changes and stay when it does not", async () => {
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    expect([await versionOf(NEWS), await versionOf(POP), await versionOf(SI)]).toEqual([
      "1",
      "1",
      "1",
    ]);

    const second = await publishSite(outDir, [
      pi(NEWS, "Evening", night(24)),
      pi(POP, "Hits", night(24)),
      si("news pop", night(24)),
    ]);
    expect(second).toMatchObject({ written: 1, unchanged: 2 });
    expect([await versionOf(NEWS), await versionOf(POP), await versionOf(SI)]).toEqual([
      "2",
      "1",
      "1",
    ]);
    expect(await readFile(join(outDir, NEWS), "utf8")).toContain(
      `<schedule creationTime="${night(24)}" version="2" originator="A"><p>Evening</p>`,
    );

    // Back to the first content: a new version, never the old number again.
    await publishSite(outDir, [pi(NEWS, "Morning", night(25)), pi(POP, "Hits"), si("news pop")]);
    expect(await versionOf(NEWS)).toBe("3");
  });

  it("writes nothing when nothing but the creationTime changed", async () => {
    await publishSite(outDir, [pi(NEWS, "Evening"), si("news")]);
    await publishSite(outDir, [pi(NEWS, "Morning", night(24)), si("news", night(24))]);
    const before = await readFile(join(outDir, NEWS));
    const mtime = (await stat(join(outDir, NEWS))).mtimeMs;
    const summary = await publishSite(outDir, [
      pi(NEWS, "Morning", night(25)),
      si("news", night(25)),
    ]);
    expect(summary).toMatchObject({ written: 0, unchanged: 2 });
    expect(await readFile(join(outDir, NEWS))).toEqual(before);
    expect((await stat(join(outDir, NEWS))).mtimeMs).toBe(mtime);
  });

  it("records each document's version and content digest, and only the files the build owns", async () => {
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    await publishSite(outDir, [pi(NEWS, "Evening"), si("news")]);
    const recorded = JSON.parse(await readFile(join(outDir, STATE_PATH), "utf8"));
    expect(Object.keys(recorded.versions)).toEqual([SI, NEWS]);
    expect(recorded.versions[NEWS]).toEqual({
      version: 2,
      content: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(recorded.versions[SI].version).toBe(2);
  });

  it("never lowers a version when the state folder is lost: the published file's version is a floor", async () => {
    await publishSite(outDir, [pi(NEWS, "Morning"), si("news")]);
    await publishSite(outDir, [pi(NEWS, "Evening"), si("news")]);
    await rm(join(outDir, STATE_DIR), { recursive: true });
    await publishSite(outDir, [pi(NEWS, "Night"), si("news")]);
    expect(await versionOf(NEWS)).toBe("3");
    expect(await versionOf(SI)).toBe("1");
  });

  it("gives a recreated file its recorded version when its content is the same, and a new one when not", async () => {
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    await publishSite(outDir, [pi(NEWS, "Evening"), pi(POP, "Hits 2"), si("news pop")]);
    await rm(join(outDir, NEWS));
    await rm(join(outDir, POP));
    await publishSite(outDir, [pi(NEWS, "Evening"), pi(POP, "Hits 3"), si("news pop")]);
    expect(await versionOf(NEWS)).toBe("2");
    expect(await versionOf(POP)).toBe("3");
  });

  it("after a build that stopped half-way, never gives a published version's number to other content", async () => {
    await publishSite(outDir, [pi(NEWS, "Morning"), si("news pop")]);
    // The next build publishes news version 2, then cannot write pop: it stops with an error
    // before it records its versions.
    await writeFile(join(outDir, "radiodns/spi/3.1/id/rdns.example/pop"), "in the way\n");
    await expect(
      publishSite(outDir, [pi(NEWS, "Evening"), pi(POP, "Hits"), si("news pop")]),
    ).rejects.toThrow(/cannot write/);
    expect(await versionOf(NEWS)).toBe("2");
    expect(await readFile(join(outDir, STATE_JOURNAL_PATH), "utf8")).toContain(
      `version 2 ${NEWS}\n`,
    );

    // Someone removes the blocking file and the half-published news file; tonight's news is
    // the version-1 content again. Only the journal knows version 2 was published.
    await rm(join(outDir, "radiodns/spi/3.1/id/rdns.example/pop"));
    await rm(join(outDir, NEWS));
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    expect(await versionOf(NEWS)).toBe("3");
    // Version 1 of pop was journaled, so the build cannot know that it never reached a reader.
    expect(await versionOf(POP)).toBe("2");
    await expect(stat(join(outDir, STATE_JOURNAL_PATH))).rejects.toThrow(/ENOENT/);
  });

  it("keeps the records of files a --keep-going build keeps without rendering them", async () => {
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits 2"), si("news pop")]);
    await publishSite(outDir, [pi(NEWS, "Morning"), si("news pop")], { keep: [POP] });
    await rm(join(outDir, POP));
    await publishSite(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits 3"), si("news pop")]);
    expect(await versionOf(POP)).toBe("3");
  });

  it("leaves files other than SI and PI documents as they are", async () => {
    const worker = {
      path: "_worker.js",
      content: Buffer.from('const a = " creationTime=\\"x\\"";\n'),
    };
    await publishSite(outDir, [worker, si("news")]);
    await publishSite(outDir, [worker, si("news")]);
    expect(await readFile(join(outDir, "_worker.js"))).toEqual(worker.content);
    const recorded = JSON.parse(await readFile(join(outDir, STATE_PATH), "utf8"));
    expect(Object.keys(recorded.versions)).toEqual([SI]);
  });
});

describe("decideVersion", () => {
  const record = (version: number, content: string) => ({ version, content });

  it("keeps the published version of an unchanged document", () => {
    expect(decideVersion(record(4, "a"), { version: 4, same: true }, "a")).toBe(4);
    // The published file is the truth even when the record lags behind it (a stopped build).
    expect(decideVersion(record(3, "b"), { version: 4, same: true }, "a")).toBe(4);
  });

  it("is 1 for a document without history", () => {
    expect(decideVersion(undefined, undefined, "a")).toBe(1);
  });

  it("goes one past both the record and the published file for new content", () => {
    expect(decideVersion(record(4, "a"), { version: 4, same: false }, "b")).toBe(5);
    expect(decideVersion(record(4, "a"), { version: 6, same: false }, "b")).toBe(7);
    expect(decideVersion(record(8, "a"), { version: 6, same: false }, "b")).toBe(9);
    expect(decideVersion(record(4, "a"), undefined, "b")).toBe(5);
  });

  it("gives a file that is gone its recorded version back only for the same content", () => {
    expect(decideVersion(record(5, "b"), undefined, "b")).toBe(5);
    expect(decideVersion(record(5, "b"), undefined, "c")).toBe(6);
    // The published file differs from what its version was recorded with: edited by hand.
    expect(decideVersion(record(4, "b"), { version: 4, same: false }, "b")).toBe(5);
  });

  it("goes past a version a stopped build journaled, whatever the record says", () => {
    expect(decideVersion(record(5, "b"), undefined, "b", 6)).toBe(7);
    expect(decideVersion(record(5, "a"), { version: 5, same: false }, "b", 6)).toBe(7);
    expect(decideVersion(undefined, undefined, "b", 2)).toBe(3);
  });
});

describe("versionFloor", () => {
  const record = (version: number, content: string) => ({ version, content });
  it("starts a document without history at the build clock's seconds since 2020, and grows the others by one", () => {
    const now = Date.parse("2026-11-23T08:00:00Z");
    expect(versionFloor(now)).toBe((now - VERSION_EPOCH) / 1000);
    expect(versionFloor(now + 1_000)).toBeGreaterThan(versionFloor(now));
    const floor = versionFloor(now);
    // Nothing known (a first build, or state and out/ lost): the clock decides.
    expect(decideVersion(undefined, undefined, "a", 0, floor)).toBe(floor);
    // A history, whatever the clock: one more than the highest version known.
    expect(decideVersion(record(4, "a"), undefined, "b", 0, floor)).toBe(5);
    expect(decideVersion(undefined, { version: 7, same: false }, "b", 0, floor)).toBe(8);
    expect(decideVersion(record(floor + 5, "a"), undefined, "b", 0, floor)).toBe(floor + 6);
    // Unchanged keeps its version whatever the clock says.
    expect(decideVersion(record(4, "a"), { version: 4, same: true }, "a", 0, floor)).toBe(4);
  });
});
