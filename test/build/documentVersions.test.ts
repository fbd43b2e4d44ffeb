import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { STATE_JOURNAL_PATH, STATE_PATH } from "../../src/build/buildState.js";
import { decideVersion, VERSION_EPOCH, versionFloor } from "../../src/build/documentVersions.js";
import { STATE_DIR } from "../../src/build/stateFolder.js";
import { partSum } from "../../src/build/stateParts.js";
import type { SiteDocument } from "../../src/site/siteContract.js";
import { publishUnderLock } from "./publishUnderLock.js";

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
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    expect([await versionOf(NEWS), await versionOf(POP), await versionOf(SI)]).toEqual([
      "1",
      "1",
      "1",
    ]);

    const second = await publishUnderLock(outDir, [
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
    await publishUnderLock(outDir, [
      pi(NEWS, "Morning", night(25)),
      pi(POP, "Hits"),
      si("news pop"),
    ]);
    expect(await versionOf(NEWS)).toBe("3");
  });

  it("writes nothing when nothing but the creationTime changed", async () => {
    await publishUnderLock(outDir, [pi(NEWS, "Evening"), si("news")]);
    await publishUnderLock(outDir, [pi(NEWS, "Morning", night(24)), si("news", night(24))]);
    const before = await readFile(join(outDir, NEWS));
    const mtime = (await stat(join(outDir, NEWS))).mtimeMs;
    const summary = await publishUnderLock(outDir, [
      pi(NEWS, "Morning", night(25)),
      si("news", night(25)),
    ]);
    expect(summary).toMatchObject({ written: 0, unchanged: 2 });
    expect(await readFile(join(outDir, NEWS))).toEqual(before);
    expect((await stat(join(outDir, NEWS))).mtimeMs).toBe(mtime);
  });

  it("records each document's version and content digest, and only the files the build owns", async () => {
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    await publishUnderLock(outDir, [pi(NEWS, "Evening"), si("news")]);
    const recorded = JSON.parse(await readFile(join(outDir, STATE_PATH), "utf8"));
    expect(Object.keys(recorded.versions)).toEqual([SI, NEWS]);
    expect(recorded.versions[NEWS]).toEqual({
      version: 2,
      content: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(recorded.versions[SI].version).toBe(2);
  });

  it("never lowers a version when the state folder is lost: the published file's version is a floor", async () => {
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), si("news")]);
    await publishUnderLock(outDir, [pi(NEWS, "Evening"), si("news")]);
    await rm(join(outDir, STATE_DIR), { recursive: true });
    await publishUnderLock(outDir, [pi(NEWS, "Night"), si("news")]);
    expect(await versionOf(NEWS)).toBe("3");
    expect(await versionOf(SI)).toBe("1");
  });

  it("gives a recreated file a version above its recorded one, whatever its content", async () => {
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    await publishUnderLock(outDir, [pi(NEWS, "Evening"), pi(POP, "Hits 2"), si("news pop")]);
    await rm(join(outDir, NEWS));
    await rm(join(outDir, POP));
    await publishUnderLock(outDir, [pi(NEWS, "Evening"), pi(POP, "Hits 3"), si("news pop")]);
    expect(await versionOf(NEWS)).toBe("3");
    expect(await versionOf(POP)).toBe("3");
  });

  it("after a build that stopped half-way, never gives a published version's number to other content", async () => {
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), si("news pop")]);
    // The next build publishes news version 2, then cannot write pop: it stops with an error
    // before it records its versions.
    await writeFile(join(outDir, "radiodns/spi/3.1/id/rdns.example/pop"), "in the way\n");
    await expect(
      publishUnderLock(outDir, [pi(NEWS, "Evening"), pi(POP, "Hits"), si("news pop")]),
    ).rejects.toThrow(/cannot write/);
    expect(await versionOf(NEWS)).toBe("2");
    expect(await readFile(join(outDir, STATE_JOURNAL_PATH), "utf8")).toContain(
      `version 2 ${NEWS}\n`,
    );

    // Someone removes the blocking file and the half-published news file; tonight's news is
    // the version-1 content again. Only the journal knows version 2 was published.
    await rm(join(outDir, "radiodns/spi/3.1/id/rdns.example/pop"));
    await rm(join(outDir, NEWS));
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    expect(await versionOf(NEWS)).toBe("3");
    // Version 1 of pop was journaled, so the build cannot know that it never reached a reader.
    expect(await versionOf(POP)).toBe("2");
    await expect(stat(join(outDir, STATE_JOURNAL_PATH))).rejects.toThrow(/ENOENT/);
  });

  it("keeps the records of files a --keep-going build keeps without rendering them", async () => {
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits"), si("news pop")]);
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits 2"), si("news pop")]);
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), si("news pop")], { keep: [POP] });
    await rm(join(outDir, POP));
    await publishUnderLock(outDir, [pi(NEWS, "Morning"), pi(POP, "Hits 3"), si("news pop")]);
    expect(await versionOf(POP)).toBe("3");
  });

  it("leaves files other than SI and PI documents as they are", async () => {
    const worker = {
      path: "_worker.js",
      content: Buffer.from('const a = " creationTime=\\"x\\"";\n'),
    };
    await publishUnderLock(outDir, [worker, si("news")]);
    await publishUnderLock(outDir, [worker, si("news")]);
    expect(await readFile(join(outDir, "_worker.js"))).toEqual(worker.content);
    const recorded = JSON.parse(await readFile(join(outDir, STATE_PATH), "utf8"));
    expect(Object.keys(recorded.versions)).toEqual([SI]);
  });
});

describe("decideVersion", () => {
  const at = (version: number, content: string) => ({ version, content });
  const FLOOR = 1_000;

  it("keeps the published version of an unchanged document its record agrees with", () => {
    expect(decideVersion({ recorded: at(4, "a"), published: at(4, "a") }, "a", FLOOR)).toBe(4);
    // A stopped build journaled and published 5 before recording it.
    expect(
      decideVersion({ recorded: at(4, "b"), published: at(5, "a"), journaled: 5 }, "a", FLOOR),
    ).toBe(5);
  });

  it("goes one past the highest version for new content when the witnesses agree", () => {
    expect(decideVersion({ recorded: at(4, "a"), published: at(4, "a") }, "b", FLOOR)).toBe(5);
    expect(
      decideVersion({ recorded: at(4, "a"), published: at(6, "c"), journaled: 7 }, "b", FLOOR),
    ).toBe(8);
  });

  it("is 1, or the clock, for a document without history", () => {
    expect(decideVersion({}, "a")).toBe(1);
    expect(decideVersion({}, "a", FLOOR)).toBe(FLOOR);
    expect(decideVersion({ journaled: 2 }, "b")).toBe(3);
  });

  it("goes to the clock when a witness is missing or they disagree, so no number repeats", () => {
    // A published file whose version lost a digit, its content unchanged.
    expect(decideVersion({ recorded: at(12345, "a"), published: at(1234, "a") }, "a", FLOOR)).toBe(
      12346,
    );
    expect(decideVersion({ recorded: at(345, "a"), published: at(34, "a") }, "a", FLOOR)).toBe(
      FLOOR,
    );
    // Other content than recorded at its version: a file restored from an older out/, or edited.
    expect(decideVersion({ recorded: at(4, "b"), published: at(4, "c") }, "c", FLOOR)).toBe(FLOOR);
    // A file newer than its record that no journal explains: a state older than the files.
    expect(decideVersion({ recorded: at(4, "a"), published: at(9, "b") }, "b", FLOOR)).toBe(FLOOR);
    // The file gone, or the record: one witness cannot tell what was handed out since.
    expect(decideVersion({ recorded: at(5, "b") }, "b", FLOOR)).toBe(FLOOR);
    expect(decideVersion({ published: at(7, "b") }, "c", FLOOR)).toBe(FLOOR);
    // Unchanged with no record to say otherwise (a lost state): the published file's own.
    expect(decideVersion({ published: at(7, "b") }, "b", FLOOR)).toBe(7);
    expect(decideVersion({ recorded: at(FLOOR + 5, "a") }, "b", FLOOR)).toBe(FLOOR + 6);
  });
});

describe("versionFloor", () => {
  it("is the build clock's seconds since 2020", () => {
    const now = Date.parse("2026-11-23T08:00:00Z");
    expect(versionFloor(now)).toBe((now - VERSION_EPOCH) / 1000);
    expect(versionFloor(now + 1_000)).toBeGreaterThan(versionFloor(now));
  });
});

describe("versions from every witness, in a build", () => {
  const START = Date.parse("2026-11-23T08:00:00Z");
  const SI_PATH = "radiodns/spi/3.1/SI.xml";
  const VERSION = / version="(\d+)"/;

  async function setUp() {
    const root = await mkdtemp(join(tmpdir(), "spi-witnesses-"));
    const dataDir = join(root, "data");
    await cp("data", dataDir, { recursive: true });
    const out = join(root, "out");
    const si = join(out, SI_PATH);
    /** Every SI published: version → its content apart from creationTime and version. */
    const handedOut = new Map<number, string>();
    const build = async (now: number, force = false) => {
      await buildSite({ dataDir, outDir: out, now, force });
      const text = await readFile(si, "utf8");
      const version = Number(VERSION.exec(text)?.[1]);
      const content = text.replace(/ creationTime="[^"]*" version="\d+"/, "");
      expect(handedOut.get(version) ?? content, `version ${version} for other content`).toBe(
        content,
      );
      handedOut.set(version, content);
      return version;
    };
    const rename = async (name: string) => {
      const path = join(dataDir, "services/news.yaml");
      const text = await readFile(path, "utf8");
      await writeFile(path, text.replace(/^ {2}long: .*$/m, `  long: ${name}`));
    };
    return { root, out, si, build, rename };
  }

  it("never keeps a version that lost a digit, also with --force", async () => {
    const { si, build } = await setUp();
    const first = await build(START);
    for (const force of [false, true]) {
      const text = await readFile(si, "utf8");
      await writeFile(si, text.replace(VERSION, ` version="${String(first).slice(0, -1)}"`));
      expect(await build(START + 60_000, force)).toBeGreaterThanOrEqual(first);
    }
  });

  it("never gives a gone file a number earlier content had, whatever its stored version says", async () => {
    const { out, si, build, rename } = await setUp();
    const first = await build(START);
    await rename("First rename");
    const second = await build(START + 60_000);
    expect(second).toBe(first + 1);
    // The stored version set back to the first content's, its sum mended, and the file gone.
    const statePath = join(out, STATE_PATH);
    const state = JSON.parse(await readFile(statePath, "utf8"));
    state.versions[SI_PATH].version = first;
    state.sums.versions = partSum(JSON.stringify(state.versions));
    await writeFile(statePath, JSON.stringify(state));
    await rm(si);
    expect(await build(START + 120_000)).toBeGreaterThan(second);
  });

  it("never hands out a number twice after older site files were restored under the state", async () => {
    const { root, out, build, rename } = await setUp();
    await build(START);
    const saved = join(root, "saved");
    await cp(out, saved, { recursive: true, filter: (path) => !path.includes(STATE_DIR) });
    await rename("First rename");
    await build(START + 60_000);
    await cp(saved, out, { recursive: true });
    await rename("Other content");
    await build(START + 120_000);
    await rename("First rename");
    await build(START + 180_000);
  });
});
