import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { versionFloor } from "../../src/build/documentVersions.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { listFiles, readTree, withoutStateParts } from "../outputFolder.js";

const run = promisify(execFile);
const dataDir = new URL("../../data", import.meta.url).pathname;
const cli = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const NOW = "2026-11-23T08:00:00Z";
const OPEN_SI = "radiodns/spi/3.1/SI.xml";
const KEYED_SI = "_keyed/radiodns/spi/3.1/SI.xml";

async function buildInto(now: string): Promise<Map<string, string>> {
  const outDir = await mkdtemp(join(tmpdir(), "spi-build-"));
  await buildSite({ dataDir, outDir, now: Date.parse(now) });
  return readTree(outDir);
}

/** crid → "service start duration" for every programme element of every PI file. */
function programmesByCrid(tree: Map<string, string>) {
  const byCrid = new Map<string, Set<string>>();
  for (const [path, xml] of tree) {
    if (!path.endsWith("_PI.xml")) continue;
    const service = path.split("/").at(-2);
    for (const m of xml.matchAll(
      /<programme id="([^"]+)"[\s\S]*?<time time="([^"]+)" duration="([^"]+)"/g,
    )) {
      const [, crid = "", time, duration] = m;
      const seen = byCrid.get(crid) ?? new Set<string>();
      seen.add(`${service} ${time} ${duration}`);
      byCrid.set(crid, seen);
    }
  }
  return byCrid;
}

describe("buildSite on the example data", () => {
  let tree: Map<string, string>;
  beforeAll(async () => {
    tree = await buildInto(NOW);
  });

  it("writes both SI documents and a PI file per service for every day from today-8 to today+8", () => {
    const xmlFiles = [...tree.keys()].filter((f) => f.endsWith(".xml"));
    expect(xmlFiles).toContain("radiodns/spi/3.1/SI.xml");
    expect(xmlFiles).toContain("_keyed/radiodns/spi/3.1/SI.xml");
    const services = [
      ...(tree.get("radiodns/spi/3.1/SI.xml") ?? "").matchAll(/serviceIdentifier="([^"]+)"/g),
    ].map((m) => m[1]);
    expect(services.length).toBeGreaterThanOrEqual(5);
    for (const service of services) {
      const days = xmlFiles
        .filter((f) => f.startsWith(`radiodns/spi/3.1/id/rdns.aareradio.example/${service}/`))
        .map((f) => f.slice(-15, -7));
      expect(days).toHaveLength(17);
      expect(days[0]).toBe("20261115");
      expect(days.at(-1)).toBe("20261201");
    }
  });

  it("writes only documents that validate against spi_31.xsd", async () => {
    const documents = [...tree]
      .filter(([f]) => f.endsWith(".xml"))
      .map(([name, xml]) => ({ name, xml }));
    expect(await validateSpiDocuments(documents)).toEqual([]);
  });

  it("never gives two different programmes the same CRID", () => {
    const clashes = [...programmesByCrid(tree)].filter(([, airings]) => airings.size > 1);
    expect(clashes).toEqual([]);
  });

  it("gives every programme the same CRID in a build on another day", async () => {
    const nextDay = programmesByCrid(await buildInto("2026-11-24T08:00:00Z"));
    const today = programmesByCrid(tree);
    const shared = [...today.keys()].filter((crid) => nextDay.has(crid));
    expect(shared.length).toBeGreaterThan(100);
    for (const crid of shared) expect(nextDay.get(crid)).toEqual(today.get(crid));
    // A programme is identified by its CRID: the same airing never appears under a new one.
    const airingsToday = new Map([...today].map(([crid, a]) => [[...a][0], crid]));
    for (const [crid, airings] of nextDay) {
      const earlier = airingsToday.get([...airings][0]);
      if (earlier) expect(crid).toBe(earlier);
    }
  });
});

describe("the CLI's output", () => {
  it("is byte-identical under TZ=UTC, America/Los_Angeles and Asia/Kolkata, across DST switches", async () => {
    // The window holds Zurich's fall-back night (Oct 25) and Los Angeles's (Nov 1).
    const now = "2026-10-28T12:00:00Z";
    const trees = await Promise.all(
      ["UTC", "America/Los_Angeles", "Asia/Kolkata"].map(async (zone) => {
        const outDir = await mkdtemp(join(tmpdir(), "spi-tz-"));
        await run(
          process.execPath,
          [cli, "build", "--data", dataDir, "--out", outDir, "--now", now, "--quiet"],
          {
            env: { ...process.env, TZ: zone },
          },
        );
        // The stamp and the document record hold each file's inode and modification time,
        // which differ per build.
        return withoutStateParts(await readTree(outDir));
      }),
    );
    const [utc, ...others] = trees;
    expect(utc?.size).toBeGreaterThan(80);
    for (const other of others) expect(other).toEqual(utc);
  });
});

describe("a build whose inputs have not changed", () => {
  async function setUp() {
    const root = await mkdtemp(join(tmpdir(), "spi-uptodate-"));
    const data = join(root, "data");
    await cp(dataDir, data, { recursive: true });
    const outDir = join(root, "out");
    const build = (now: string, more: { force?: boolean } = {}) =>
      buildSite({ dataDir: data, outDir, now: Date.parse(now), ...more });
    return { data, outDir, build };
  }
  /** The published files' times: an up-to-date build may still record in state.json what it learned. */
  const mtimes = async (outDir: string) =>
    new Map(
      await Promise.all(
        (await listFiles(outDir))
          .filter((f) => !f.startsWith("_spi-static/"))
          .map(async (f) => [f, (await stat(join(outDir, f))).mtimeMs] as const),
      ),
    );

  it("does nothing later the same local day, repeating the first build's report", async () => {
    const { outDir, build } = await setUp();
    const first = await build("2026-11-23T08:00:00Z");
    const before = await mtimes(outDir);
    // 23:30 in Zurich is still the 23rd there.
    const second = await build("2026-11-23T22:30:00Z");
    expect(second).toMatchObject({
      upToDate: true,
      rendered: 0,
      written: 0,
      unchanged: first.rendered,
      removed: 0,
      today: "2026-11-23",
      builtAt: "2026-11-23T08:00:00.000Z",
      problems: first.problems,
    });
    expect(await mtimes(outDir)).toEqual(before);
  });

  it("builds again on the next local day, after a data edit, with --force, and when a file was touched", async () => {
    const { data, outDir, build } = await setUp();
    await build("2026-11-23T08:00:00Z");
    // 23:30 UTC is already the 24th in Zurich: the window moves by a day.
    const nextDay = await build("2026-11-23T23:30:00Z");
    expect(nextDay).toMatchObject({ upToDate: false, today: "2026-11-24", removed: 5 });

    const provider = join(data, "provider.yaml");
    await writeFile(provider, `${await readFile(provider, "utf8")}\n# edited\n`);
    expect(await build("2026-11-23T23:40:00Z")).toMatchObject({ upToDate: false, written: 0 });
    expect(await build("2026-11-23T23:41:00Z")).toMatchObject({ upToDate: true });
    expect(await build("2026-11-23T23:42:00Z", { force: true })).toMatchObject({
      upToDate: false,
      rendered: nextDay.rendered + nextDay.reused,
      reused: 0,
    });

    const si = join(outDir, "radiodns/spi/3.1/SI.xml");
    await writeFile(si, "<damaged/>");
    expect(await build("2026-11-23T23:43:00Z")).toMatchObject({ upToDate: false, written: 1 });
  });

  it("gives a document a new version when its content changes and keeps it when it does not", async () => {
    const { data, outDir, build } = await setUp();
    const versions = async () => {
      const byPath = new Map<string, string>();
      for (const path of await listFiles(outDir)) {
        if (!path.endsWith(".xml")) continue;
        const text = await readFile(join(outDir, path), "utf8");
        const [, version] = / creationTime="[^"]*" version="(\d+)"/.exec(text) ?? [];
        byPath.set(path, version ?? "none");
      }
      return byPath;
    };
    const edit = async (file: string, from: string, to: string) => {
      const path = join(data, file);
      const text = await readFile(path, "utf8");
      expect(text).toContain(from);
      await writeFile(path, text.replaceAll(from, to));
    };
    // A first build knows no version: every document starts at the build clock's seconds since
    // 2020 (versionFloor); from then on a changed document's version grows by one.
    await build("2026-11-23T08:00:00Z");
    const first = await versions();
    const firstVersion = String(versionFloor(Date.parse("2026-11-23T08:00:00Z")));
    expect(new Set(first.values())).toEqual(new Set([firstVersion]));
    const nextVersion = String(Number(firstVersion) + 1);

    await edit("schedules/news.yaml", "The Midday Report", "The Midday Report Extra");
    const afterShowEdit = await build("2026-11-23T08:10:00Z");
    const second = await versions();
    const changed = [...second]
      .filter(([, version]) => version === nextVersion)
      .map(([path]) => path);
    expect(changed.length).toBe(afterShowEdit.written);
    expect(changed.length).toBeGreaterThan(10);
    for (const path of changed) expect(path).toMatch(/\/news\/\d{8}_PI\.xml$/);
    expect([...second.values()].every((v) => v === firstVersion || v === nextVersion)).toBe(true);
    expect([second.get(OPEN_SI), second.get(KEYED_SI)]).toEqual([firstVersion, firstVersion]);

    await edit("services/news.yaml", "Switzerland and the World", "Switzerland and Europe");
    await build("2026-11-23T08:20:00Z");
    const third = await versions();
    expect([third.get(OPEN_SI), third.get(KEYED_SI)]).toEqual([nextVersion, nextVersion]);
    expect([...third].filter(([path]) => !path.endsWith("SI.xml"))).toEqual(
      [...second].filter(([path]) => !path.endsWith("SI.xml")),
    );
  });
});

describe("buildSite's lock", () => {
  it("is held from before the data is read until every record is written, and a refused first build leaves no out/", async () => {
    const outDir = join(await mkdtemp(join(tmpdir(), "spi-build-lock-")), "out");
    const lockPath = join(outDir, "_spi-static/build.lock");
    let heldWhileLoading = false;
    await buildSite({
      dataDir,
      outDir,
      now: Date.parse(NOW),
      onValidated: () => {
        heldWhileLoading = existsSync(lockPath);
      },
    });
    expect(heldWhileLoading).toBe(true);
    expect(existsSync(lockPath)).toBe(false);

    const brokenData = await mkdtemp(join(tmpdir(), "spi-build-lock-data-"));
    const refusedOut = join(brokenData, "out");
    await expect(
      buildSite({ dataDir: join(brokenData, "none"), outDir: refusedOut, now: Date.parse(NOW) }),
    ).rejects.toThrow();
    expect(existsSync(refusedOut)).toBe(false);
  });
});

describe("a build whose lock cannot be released", () => {
  it("still says why it failed", async (context) => {
    if (process.getuid?.() !== 0) context.skip("chattr +i needs root");
    const outDir = join(await mkdtemp(join(tmpdir(), "spi-build-release-")), "out");
    const stateDir = join(outDir, "_spi-static");
    const chattr = (flag: string) => {
      try {
        execFileSync("chattr", [flag, stateDir], { stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    };
    let immutable = false;
    try {
      const failed = buildSite({
        dataDir,
        outDir,
        now: Date.parse(NOW),
        // Once the data is checked: nothing can be created or removed in _spi-static/ any more.
        onValidated: () => {
          immutable = chattr("+i");
        },
      });
      await failed.then(
        () => context.skip("chattr +i did not stop the build here"),
        (error: Error) => {
          if (!immutable) context.skip("chattr +i is not available here");
          expect(error.message).toMatch(/^cannot write .*_spi-static/);
        },
      );
    } finally {
      chattr("-i");
    }
  });
});
