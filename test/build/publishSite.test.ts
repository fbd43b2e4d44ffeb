import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { acquireBuildLock, BuildLockBusyError } from "../../src/build/buildLock.js";
import { STATE_JOURNAL_PATH, STATE_PATH } from "../../src/build/buildState.js";
import { LOCK_PATH } from "../../src/build/stateFolder.js";
import { PublishError } from "../../src/publish/publishError.js";
import type { SiteDocument } from "../../src/site/siteContract.js";
import { publishUnderLock } from "./publishUnderLock.js";

const SI = "radiodns/spi/3.1/SI.xml";
const piPath = (service: string, day: string) =>
  `radiodns/spi/3.1/id/rdns.example/${service}/${day}_PI.xml`;

function pi(
  service: string,
  day: string,
  creationTime = "2026-11-23T04:00:00Z",
  title = "Morning",
): SiteDocument {
  return {
    path: piPath(service, day),
    content: Buffer.from(
      `<epg><schedule creationTime="${creationTime}"><p>${service} ${day} ${title}</p></schedule></epg>\n`,
    ),
  };
}

function si(creationTime = "2026-11-23T04:00:00Z", services = "news pop"): SiteDocument {
  return {
    path: SI,
    content: Buffer.from(
      `<serviceInformation creationTime="${creationTime}">${services}</serviceInformation>\n`,
    ),
  };
}

/** What publish writes for a rendered document: its version right after its creationTime. */
function publishedAs({ content }: SiteDocument, version: number): Buffer {
  return Buffer.from(
    content.toString().replace(/( creationTime="[^"]*")/, `$1 version="${version}"`),
  );
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

async function manifestOf(outDir: string): Promise<string[]> {
  return JSON.parse(await readFile(join(outDir, STATE_PATH), "utf8")).owned;
}

let outDir: string;
beforeEach(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-publish-"));
});

describe("publishSite", () => {
  it("writes every document, records them in the manifest and leaves no lock or journal", async () => {
    const summary = await publishUnderLock(outDir, [
      pi("news", "20261123"),
      pi("pop", "20261123"),
      si(),
    ]);
    expect(summary).toEqual({
      rendered: 3,
      written: 3,
      unchanged: 0,
      reused: 0,
      removed: 0,
      foreign: [],
    });
    expect(await readFile(join(outDir, SI))).toEqual(publishedAs(si(), 1));
    expect(await manifestOf(outDir)).toEqual([
      SI,
      piPath("news", "20261123"),
      piPath("pop", "20261123"),
    ]);
    expect(await listFiles(outDir)).toEqual([
      STATE_PATH,
      SI,
      piPath("news", "20261123"),
      piPath("pop", "20261123"),
    ]);
  });

  it("keeps the bytes and mtime of documents that differ only in creationTime", async () => {
    await publishUnderLock(outDir, [pi("news", "20261123"), si()]);
    const old = new Date("2026-01-01T00:00:00Z");
    await utimes(join(outDir, SI), old, old);
    await utimes(join(outDir, piPath("news", "20261123")), old, old);

    const summary = await publishUnderLock(outDir, [
      pi("news", "20261123", "2026-11-24T04:00:00Z", "Changed"),
      si("2026-11-24T04:00:00Z"),
    ]);
    expect(summary).toMatchObject({ rendered: 2, written: 1, unchanged: 1 });
    expect(await readFile(join(outDir, SI))).toEqual(publishedAs(si(), 1));
    expect((await stat(join(outDir, SI))).mtime).toEqual(old);
    expect(await readFile(join(outDir, piPath("news", "20261123")), "utf8")).toContain("Changed");
    expect((await stat(join(outDir, piPath("news", "20261123")))).mtime).not.toEqual(old);
  });

  it("removes its own files that the build no longer produces, with folders they leave empty", async () => {
    await publishUnderLock(outDir, [
      pi("news", "20261122"),
      pi("news", "20261123"),
      pi("gone", "20261123"),
      si(),
    ]);
    const summary = await publishUnderLock(outDir, [
      pi("news", "20261123"),
      pi("news", "20261124"),
      si(),
    ]);
    expect(summary).toMatchObject({ written: 1, unchanged: 2, removed: 2, foreign: [] });
    expect(await listFiles(outDir)).toEqual([
      STATE_PATH,
      SI,
      piPath("news", "20261123"),
      piPath("news", "20261124"),
    ]);
    await expect(stat(join(outDir, "radiodns/spi/3.1/id/rdns.example/gone"))).rejects.toThrow(
      /ENOENT/,
    );
  });

  it("leaves foreign files alone, reports them, and keeps the folder that holds one", async () => {
    await publishUnderLock(outDir, [pi("gone", "20261123"), si()]);
    await writeFile(join(outDir, "radiodns/spi/3.1/id/rdns.example/gone/notes.txt"), "mine\n");
    await writeFile(join(outDir, "index.html"), "<h1>hello</h1>\n");

    const summary = await publishUnderLock(outDir, [si()]);
    expect(summary).toMatchObject({ removed: 1 });
    expect(summary.foreign).toEqual([
      "index.html",
      "radiodns/spi/3.1/id/rdns.example/gone/notes.txt",
    ]);
    expect(await readFile(join(outDir, "index.html"), "utf8")).toBe("<h1>hello</h1>\n");
    expect(await listFiles(outDir)).toContain("radiodns/spi/3.1/id/rdns.example/gone/notes.txt");
  });

  it("leaves `wrangler dev`'s state in out/.wrangler alone, and does not call it foreign", async () => {
    await publishUnderLock(outDir, [si()]);
    // `wrangler dev --config out/wrangler.jsonc` (the layout before the config moved to the
    // project root) keeps its state next to its config.
    await mkdir(join(outDir, ".wrangler/state/v3"), { recursive: true });
    await writeFile(join(outDir, ".wrangler/state/v3/cache.sqlite"), "state\n");

    const summary = await publishUnderLock(outDir, [si("2026-11-24T04:00:00Z")]);
    expect(summary.foreign).toEqual([]);
    expect(await readFile(join(outDir, ".wrangler/state/v3/cache.sqlite"), "utf8")).toBe("state\n");
  });

  it("prunes files a killed build had journaled, and removes its temporary files", async () => {
    await publishUnderLock(outDir, [si()]);
    // What a build killed mid-way leaves: a journaled new file, and a half-written temporary one.
    await mkdir(join(outDir, "radiodns/spi/3.1/id/rdns.example/news"), { recursive: true });
    await writeFile(join(outDir, piPath("news", "20261101")), pi("news", "20261101").content);
    await writeFile(join(outDir, STATE_JOURNAL_PATH), `owns ${piPath("news", "20261101")}\n`);
    const leftover =
      "radiodns/spi/3.1/id/rdns.example/news/.20261102_PI.xml.0123456789ab.spi-static.tmp";
    await writeFile(join(outDir, leftover), "<epg><sche");

    const summary = await publishUnderLock(outDir, [si(), pi("news", "20261123")]);
    expect(summary).toMatchObject({ written: 1, unchanged: 1, removed: 1, foreign: [] });
    expect(await listFiles(outDir)).toEqual([STATE_PATH, SI, piPath("news", "20261123")]);
  });

  it("never writes outside the output folder", async () => {
    for (const path of [
      "../escape.xml",
      "/etc/escape.xml",
      "a/../../escape.xml",
      "_spi-static/state.json",
    ]) {
      await expect(publishUnderLock(outDir, [{ path, content: Buffer.from("x") }])).rejects.toThrow(
        /invalid or repeated output path/,
      );
    }
    await expect(stat(join(outDir, "../escape.xml"))).rejects.toThrow(/ENOENT/);
  });

  it("ignores owned entries that point outside the output folder", async () => {
    const victim = join(outDir, "..", `${outDir.split("/").at(-1)}-victim.txt`);
    await writeFile(victim, "keep me\n");
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    await writeFile(
      join(outDir, STATE_PATH),
      JSON.stringify({ formatVersion: 1, owned: [`../${victim.split("/").at(-1)}`], versions: {} }),
    );
    await publishUnderLock(outDir, [si()]);
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
  });

  it("guesses no ownership from a state that is not JSON: it goes on and deletes nothing it no longer writes", async () => {
    await publishUnderLock(outDir, [pi("news", "20261123"), si()]);
    await writeFile(join(outDir, STATE_PATH), "{ hand-edited");
    const notes: string[] = [];
    const summary = await publishUnderLock(outDir, [si()], { notes });
    expect(notes).toEqual([
      expect.stringContaining(`${join(outDir, STATE_PATH)} is not a JSON object`),
    ]);
    expect(summary.foreign).toEqual([piPath("news", "20261123")]);
    await expect(stat(join(outDir, piPath("news", "20261123")))).resolves.toBeDefined();
  });

  it("fails with the path and the cause when a file stands where a folder must go, keeping what was published", async () => {
    await publishUnderLock(outDir, [pi("news", "20261123"), si()]);
    await writeFile(join(outDir, "radiodns/spi/3.1/id/rdns.example/pop"), "in the way\n");

    const error = await publishUnderLock(outDir, [
      pi("news", "20261123", undefined, "New"),
      pi("pop", "20261123"),
      si(),
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PublishError);
    expect((error as PublishError).message).toMatch(
      /^cannot write .*\/radiodns\/spi\/3\.1\/id\/rdns\.example\/pop\/20261123_PI\.xml: .*\((ENOTDIR|EEXIST)\)/,
    );
    expect(await readFile(join(outDir, SI))).toEqual(publishedAs(si(), 1));
    // The lock is released, so the next build can run.
    await expect(stat(join(outDir, LOCK_PATH))).rejects.toThrow(/ENOENT/);
  });
});

describe("the build lock", () => {
  it("makes a second build give up at once, naming the holder", async () => {
    const release = await acquireBuildLock(join(outDir, LOCK_PATH));
    const error = await publishUnderLock(outDir, [si()]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildLockBusyError);
    expect((error as Error).message).toContain(`pid ${process.pid}`);
    await expect(stat(join(outDir, SI))).rejects.toThrow(/ENOENT/);
    await release();
    await publishUnderLock(outDir, [si()]);
  });

  it("lets a second build wait for the first", async () => {
    const release = await acquireBuildLock(join(outDir, LOCK_PATH));
    const waiting = publishUnderLock(outDir, [si()], { lock: { waitMs: 30_000, pollMs: 20 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(stat(join(outDir, SI))).rejects.toThrow(/ENOENT/);
    await release();
    await expect(waiting).resolves.toMatchObject({ written: 1 });
  });

  it("takes over the lock of a build that was killed", async () => {
    const deadPid = Number(
      execFileSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }),
    );
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    const stale = {
      pid: deadPid,
      host: hostname(),
      startedAt: new Date().toISOString(),
      token: "dead",
    };
    await writeFile(join(outDir, LOCK_PATH), JSON.stringify(stale));
    await expect(publishUnderLock(outDir, [si()])).resolves.toMatchObject({ written: 1 });
  });

  it("takes over a lock older than the stale age, even when its pid looks alive", async () => {
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    const old = {
      pid: process.ppid,
      host: hostname(),
      startedAt: "2026-01-01T00:00:00Z",
      token: "old",
    };
    await writeFile(join(outDir, LOCK_PATH), JSON.stringify(old));
    await expect(publishUnderLock(outDir, [si()])).resolves.toMatchObject({ written: 1 });
  });

  it("does not take over a live lock of another host before the stale age", async () => {
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    const remote = {
      pid: 1,
      host: "elsewhere",
      startedAt: new Date().toISOString(),
      token: "remote",
    };
    await writeFile(join(outDir, LOCK_PATH), JSON.stringify(remote));
    await expect(publishUnderLock(outDir, [si()])).rejects.toThrow(/pid 1 on elsewhere/);
  });

  it("removes what builds killed while taking the lock or writing the state left behind", async () => {
    // A kill between writing a temporary and removing it (createExclusively) leaves these.
    // A kill while the state was written (writeFileAtomically) leaves its temporary.
    const left = [
      "build.lock.0123456789ab.new",
      "build.lock.break.ba9876543210.new",
      "build.lock.break",
      ".state.json.4242-0.spi-static.tmp",
    ];
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    for (const name of left) await writeFile(join(outDir, "_spi-static", name), "{}");
    await publishUnderLock(outDir, [si()]);
    expect(await readdir(join(outDir, "_spi-static"))).toEqual(["state.json"]);
  });

  it("lets exactly one of several simultaneous builds take a stale lock", async () => {
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    const stale = {
      pid: process.pid,
      host: hostname(),
      startedAt: "2026-01-01T00:00:00Z",
      token: "dead",
    };
    await writeFile(join(outDir, LOCK_PATH), JSON.stringify(stale));
    const lockPath = join(outDir, LOCK_PATH);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () => acquireBuildLock(lockPath)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(
      results.filter((r) => r.status === "rejected" && r.reason instanceof BuildLockBusyError),
    ).toHaveLength(7);
  });
});
