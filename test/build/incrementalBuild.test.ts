import { execFileSync } from "node:child_process";
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { type BuildSummary, buildSite } from "../../src/build/buildSite.js";
import { loadAndSchedule } from "../../src/loadAndSchedule.js";
import { readPublishedFiles, withoutStamps } from "../outputFolder.js";

/**
 * Work proportional to change (issue 15): a build renders only the documents whose inputs (the
 * program, the provider, the service, its schedule, the day) or published file changed since
 * the last build, and its output is still the output of a build that renders everything.
 */

const exampleData = new URL("../../data", import.meta.url).pathname;
const SERVICES = ["bern", "klassik", "lounge", "news", "pop"];
const DAYS = 17;
/** The edge files (worker, routes, .assetsignore): small, rendered every time. */
const EDGE_FILES = 3;
/** The logos made from the example's sources (docs/logos.md): the group's and each service's five sizes. */
const LOGOS = (SERVICES.length + 1) * 5;
const START = Date.parse("2026-11-23T08:00:00Z");
const DAY_MS = 86_400_000;

const roots: string[] = [];
afterAll(async () => {
  for (const root of roots) await rm(root, { recursive: true, force: true });
});

async function setUp() {
  const root = await mkdtemp(join(tmpdir(), "spi-incremental-"));
  roots.push(root);
  const data = join(root, "data");
  await cp(exampleData, data, { recursive: true });
  const build = (outDir: string, now: number, force = false) =>
    buildSite({ dataDir: data, outDir: join(root, outDir), now, force });
  const tree = (outDir: string) => readPublishedFiles(join(root, outDir));
  return { root, data, build, tree };
}

/** A small deterministic generator (mulberry32), so every run makes the same edits. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** Replaces the `nth` match of `pattern` in a data file. */
async function edit(
  path: string,
  pattern: RegExp,
  nth: number,
  replace: (match: string) => string,
) {
  const text = await readFile(path, "utf8");
  let seen = 0;
  const edited = text.replace(new RegExp(pattern, "gm"), (match) =>
    seen++ === nth ? replace(match) : match,
  );
  if (edited === text) throw new Error(`no edit made in ${path}`);
  await writeFile(path, edited);
}

function renderedDocuments(summary: BuildSummary): number {
  return summary.rendered - EDGE_FILES;
}

describe("an incremental build", () => {
  it("renders only the new day of each service on the next night, and no SI", async () => {
    const { root, build, tree } = await setUp();
    const first = await build("out", START);
    expect(renderedDocuments(first)).toBe(SERVICES.length * DAYS + 2 + LOGOS);
    vi.stubEnv("SPI_STATIC_DEBUG", "render");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const nextNight = await build("out", START + DAY_MS);
    const said = stderr.mock.calls.map(([text]) => String(text)).join("");
    stderr.mockRestore();
    vi.unstubAllEnvs();
    expect(nextNight).toMatchObject({
      upToDate: false,
      reused: SERVICES.length * (DAYS - 1) + 2 + LOGOS,
    });
    expect(renderedDocuments(nextNight)).toBe(SERVICES.length);
    expect(nextNight.written).toBe(SERVICES.length);
    // Each new day was rendered from the check's layout; no service was laid out again for it.
    expect(said).toContain(
      `${SERVICES.length} PI documents taken as rendered ahead during the check (${SERVICES.length} rendered ahead)`,
    );
    // They waited on disk, in a staging folder the build removed when done.
    expect(await readdir(join(root, "out", "_spi-static"))).not.toContainEqual(
      expect.stringMatching(/staging/),
    );
    // The same bytes as a build that renders every document (stamps aside).
    const forced = await build("forced", START + DAY_MS, true);
    expect(forced.reused).toBe(0);
    expect(withoutStamps(await tree("out"))).toEqual(withoutStamps(await tree("forced")));
  });

  it("renders one service's documents and the SI after that service's schedule was edited", async () => {
    const { data, build } = await setUp();
    await build("out", START);
    await edit(
      join(data, "schedules/news.yaml"),
      /^ +name: \{ short: [^\n]*long: (?=[A-Z])/,
      1,
      (m) => `${m}New `,
    );
    const edited = await build("out", START + 60_000);
    expect(renderedDocuments(edited)).toBe(DAYS + 2);
    expect(edited.reused).toBe((SERVICES.length - 1) * DAYS + LOGOS);
    // The show airs on weekdays only: the days without it stay as they were.
    expect(edited.written).toBeGreaterThan(0);
    expect(edited.written).toBeLessThanOrEqual(DAYS);
  });

  it("lays out only the edited service to check it, and still reports every service's warnings", async () => {
    const { data, build } = await setUp();
    // A warning the layout finds: an episode after the published days that matches no airing.
    await mkdir(join(data, "episodes/klassik"));
    await writeFile(
      join(data, "episodes/klassik/2027-w10.yaml"),
      'episodes:\n  - date: 2027-03-02\n    start: "03:33"\n    name: { long: "Nobody airs" }\n',
    );
    const first = await build("out", START);
    expect(first.problems.some((p) => p.file.endsWith("episodes/klassik/2027-w10.yaml"))).toBe(
      true,
    );
    await edit(join(data, "services/news.yaml"), /^ {2}long: /, 0, (m) => `${m}Edited `);
    vi.stubEnv("SPI_STATIC_DEBUG", "schedule");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const edited = await build("out", START + 60_000);
    const said = stderr.mock.calls.map(([text]) => String(text)).join("");
    stderr.mockRestore();
    vi.unstubAllEnvs();
    const recorded = SERVICES.filter((id) => said.includes(`${id}: checked as recorded`));
    expect(recorded).toEqual(SERVICES.filter((id) => id !== "news"));
    expect(said).toMatch(/news: \d+ programmes laid out/);
    // The record stands in for the layout: the same problems as a build that checks everything.
    expect(edited.problems).toEqual((await build("forced", START + 60_000, true)).problems);
    expect(edited.problems).toEqual(first.problems);
    // And what `validate` reports, which lays out every service without a plan.
    expect((await loadAndSchedule(data, START + 60_000)).problems).toEqual(edited.problems);

    // A record no longer readable is only unused.
    const statePath = join(data, "..", "out", "_spi-static", "state.json");
    const state = JSON.parse(await readFile(statePath, "utf8"));
    await writeFile(statePath, JSON.stringify({ ...state, checks: "{ not json" }));
    await edit(join(data, "services/news.yaml"), /^ {2}long: /, 0, (m) => `${m}Again `);
    expect((await build("out", START + 120_000)).problems).toEqual(first.problems);
  });

  it("renders a document again when its file is no longer as the last build left it", async () => {
    const { root, build } = await setUp();
    await build("out", START);
    const path = join(root, "out/radiodns/spi/3.1/id/rdns.aareradio.example/pop/20261123_PI.xml");
    const published = await readFile(path, "utf8");
    await writeFile(path, published.replace("<programme ", "<programme  "));
    const again = await build("out", START + 60_000);
    expect(again).toMatchObject({ upToDate: false, written: 1 });
    expect(renderedDocuments(again)).toBe(1);
    // Rendered again at the new clock: the same document with tonight's creationTime.
    const rewritten = new Map([["pi", await readFile(path, "utf8")]]);
    expect(withoutStamps(rewritten)).toEqual(withoutStamps(new Map([["pi", published]])));
  });

  it("renders everything again after the runtime's time-zone data changed, as --force does", async () => {
    const { build, tree } = await setUp();
    await build("out", START);
    await build("forced", START, true);
    const tz = Object.getOwnPropertyDescriptor(process.versions, "tz");
    Object.defineProperty(process.versions, "tz", { ...tz, value: "2099z" });
    try {
      const after = await build("out", START + 60_000);
      // Every SI and PI document; the logos are named by what their bytes depend on (the image
      // library's version among it), which the time-zone data is not.
      expect(after).toMatchObject({ upToDate: false, reused: LOGOS });
      expect(renderedDocuments(after)).toBe(SERVICES.length * DAYS + 2);
      await build("forced", START + 60_000, true);
      expect(await tree("out")).toEqual(await tree("forced"));
    } finally {
      if (tz) Object.defineProperty(process.versions, "tz", tz);
    }
  });

  it("repairs a published file edited in place with its size and mtime kept", async () => {
    const { root, build } = await setUp();
    await build("out", START);
    const path = join(root, "out/radiodns/spi/3.1/id/rdns.aareradio.example/pop/20261123_PI.xml");
    const published = await readFile(path, "utf8");
    // Its times kept to the nanosecond, as `touch -r` keeps them.
    const times = join(root, "times");
    await writeFile(times, "");
    execFileSync("touch", ["-r", path, times]);
    const at = published.indexOf("</longName>") - 1;
    const flipped = published[at] === "x" ? "y" : "x";
    await writeFile(path, `${published.slice(0, at)}${flipped}${published.slice(at + 1)}`);
    execFileSync("touch", ["-r", times, path]);
    const edited = await stat(path, { bigint: true });
    expect(edited.size).toBe(BigInt(Buffer.byteLength(published)));
    const again = await build("out", START + 60_000);
    expect(again).toMatchObject({ upToDate: false, written: 1 });
    expect(withoutStamps(new Map([["pi", await readFile(path, "utf8")]]))).toEqual(
      withoutStamps(new Map([["pi", published]])),
    );
  });

  it("reuses out/ restored from a CI cache and data checked out afresh (new inodes and times)", async () => {
    const { root, data, build, tree } = await setUp();
    await build("out", START);
    await build("forced", START, true);
    /** What a fresh CI runner meets: the data checked out again, out/ restored from the cache. */
    const asOnAFreshRunner = async () => {
      for (const dir of [data, join(root, "out")]) {
        await rename(dir, `${dir}-before`);
        await cp(`${dir}-before`, dir, { recursive: true });
        await rm(`${dir}-before`, { recursive: true });
      }
    };
    await asOnAFreshRunner();
    // The same day: found up to date by hashing, nothing rendered or written.
    expect(await build("out", START + 60_000)).toMatchObject({ upToDate: true, written: 0 });
    await asOnAFreshRunner();
    const nextNight = await build("out", START + DAY_MS);
    expect(nextNight).toMatchObject({
      upToDate: false,
      reused: SERVICES.length * (DAYS - 1) + 2 + LOGOS,
    });
    expect(renderedDocuments(nextNight)).toBe(SERVICES.length);
    expect(nextNight.written).toBe(SERVICES.length);
    await build("forced", START + DAY_MS, true);
    expect(await tree("out")).toEqual(await tree("forced"));
  });

  it("never publishes a damaged input cache entry, and --force reads none", async () => {
    const { root, build, tree } = await setUp();
    await build("out", START);
    await build("forced", START, true);
    // A same-length change inside the entries naming a show, as a bit flip or a bad restore makes.
    const cacheDir = join(root, "out/_spi-static/inputs");
    const damage = async () => {
      let damaged = 0;
      for (const name of await readdir(cacheDir)) {
        const entry = await readFile(join(cacheDir, name));
        const at = entry.indexOf("Morning Briefing", 0, "latin1");
        if (at === -1) continue;
        entry.write("x", at + 4, "latin1");
        await writeFile(join(cacheDir, name), entry);
        damaged++;
      }
      return damaged;
    };
    expect(await damage()).toBeGreaterThan(0);
    const forced = await build("out", START + 60_000, true);
    expect(forced.reused).toBe(0);
    await build("forced", START + 60_000, true);
    expect(await tree("out")).toEqual(await tree("forced"));
    // Damaged again, read by an ordinary build: parsed again, not published.
    expect(await damage()).toBeGreaterThan(0);
    const next = await build("out", START + DAY_MS);
    await build("forced", START + DAY_MS, true);
    expect(next.reused).toBeGreaterThan(0);
    expect(await tree("out")).toEqual(await tree("forced"));
    expect([...(await tree("out")).values()].join("")).not.toContain("Mornxng");
  });

  it("names the moved data folder in replayed warnings, as --force and a first build do", async () => {
    const { root, data, tree } = await setUp();
    await mkdir(join(data, "episodes/klassik"));
    await writeFile(
      join(data, "episodes/klassik/2027-w10.yaml"),
      'episodes:\n  - date: 2027-03-02\n    start: "03:33"\n    name: { long: "Nobody airs" }\n',
    );
    await buildSite({ dataDir: data, outDir: join(root, "out"), now: START });
    const moved = join(root, "moved-data");
    await rename(data, moved);
    const build = (outDir: string, force = false) =>
      buildSite({ dataDir: moved, outDir: join(root, outDir), now: START + 60_000, force });
    const after = await build("out");
    const warned = after.problems.map((problem) => problem.file);
    expect(warned.some((file) => file.includes("moved-data/episodes/klassik/2027-w10.yaml"))).toBe(
      true,
    );
    expect(warned.filter((file) => !file.includes("moved-data"))).toEqual([]);
    expect(after.problems).toEqual((await build("forced", true)).problems);
    expect(withoutStamps(await tree("out"))).toEqual(withoutStamps(await tree("forced")));
  });

  it("never repeats or lowers a version on a CI runner: saved right after the build, or lost", async () => {
    const { root, data, build, tree } = await setUp();
    /** Every SI and PI document's version and content (its stamps taken out), by path. */
    const documentsIn = async (outDir: string) => {
      const xml = [...(await tree(outDir))].filter(([path]) => path.endsWith(".xml"));
      const content = withoutStamps(new Map(xml));
      return new Map(
        xml.map(([path, text]) => [
          path,
          { version: Number(/ version="(\d+)"/.exec(text)?.[1]), content: content.get(path) },
        ]),
      );
    };
    const editNews = (name: string) =>
      edit(
        join(data, "schedules/news.yaml"),
        /^ +name: \{ short: [^\n]*long: (?=[A-Z])/,
        1,
        (m) => `${m}${name} `,
      );
    await build("out", START);
    await editNews("Tuesday");
    await build("out", START + DAY_MS);
    const handedOut = await documentsIn("out");
    // The nightly template saves out/ (and its state) right after a good build, before deploy
    // and verify: a night whose verify fails still hands its versions on. A fresh runner
    // restores that copy (new inodes) into a fresh checkout.
    await cp(join(root, "out"), join(root, "saved"), { recursive: true });
    await rm(join(root, "out"), { recursive: true });
    await cp(join(root, "saved"), join(root, "out"), { recursive: true });
    await editNews("Wednesday");
    await build("out", START + 2 * DAY_MS);
    const replayed = await documentsIn("out");
    let changed = 0;
    for (const [path, now] of replayed) {
      const before = handedOut.get(path);
      if (before === undefined) continue;
      // Unchanged keeps its version; changed grows by one (TS 102 818: "incremented by one").
      expect(now.version, path).toBe(before.version + (now.content === before.content ? 0 : 1));
      if (now.content !== before.content) changed++;
    }
    expect(changed).toBeGreaterThan(0);
    // The night after, the cache was evicted: no state, no out/. Every document is new again,
    // and its version above every version handed out before.
    await rm(join(root, "out"), { recursive: true });
    await build("out", START + 3 * DAY_MS);
    const evicted = [...(await documentsIn("out")).values()].map(({ version }) => version);
    const earlier = [...handedOut.values(), ...replayed.values()].map(({ version }) => version);
    expect(Math.min(...evicted)).toBeGreaterThan(Math.max(...earlier));
  });

  it("rolls each check on by laying out the new days only, with warnings on the new day and on the one that left, a programme across midnight at the span's end and a CRID given again on the new day: what --force finds and writes", async () => {
    const { root, data, tree } = await setUp();
    // Friday 27 November lays out 18 November to 6 December; Saturday 19 November to 7 December.
    const friday = Date.parse("2026-11-27T08:00:00Z");
    const saturday = friday + DAY_MS;
    // Episodes renaming a show with a German name keep that name in German: a warning, on the
    // day that leaves (Wed 18), a day kept, the new day (Mon 7 December, beyond the days on
    // Friday: a warning for the future then) and a day beyond both.
    const renamed = (date: string) =>
      `  - { date: ${date}, show: made-in-bern, name: { long: "Made in Bern on ${date}" } }\n`;
    await mkdir(join(data, "episodes/bern"));
    const dates = ["2026-11-18", "2026-11-25", "2026-12-07", "2026-12-08"];
    await writeFile(
      join(data, "episodes/bern/renamed.yaml"),
      `episodes:\n${dates.map(renamed).join("")}`,
    );
    // The new day's last programme runs past midnight into the day after the span.
    await writeFile(
      join(data, "schedules/bern.yaml"),
      (await readFile(join(data, "schedules/bern.yaml"), "utf8")).replace(
        /^dates:\n/m,
        'dates:\n  - date: 2026-12-07\n    specials:\n      - { start: "23:30", end: "02:00", show: sport }\n',
      ),
    );
    // A CRID news gives on a day kept is given again by an episode of the new day: an error
    // only once that day comes into the span.
    await writeFile(
      join(data, "episodes/news/again.yaml"),
      'episodes:\n  - { date: 2026-12-07, show: morning, crid: "crid://aareradio.example/news/vote-2026-results" }\n',
    );
    const night = async (now: number) => {
      vi.stubEnv("SPI_STATIC_DEBUG", "schedule");
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      const incremental = await buildKeepingGoing("incremental", now);
      const said = stderr.mock.calls.map(([text]) => String(text)).join("");
      stderr.mockRestore();
      vi.unstubAllEnvs();
      const forced = await buildKeepingGoing("forced", now, true);
      expect(incremental.problems).toEqual(forced.problems);
      expect(incremental.brokenServices).toEqual(forced.brokenServices);
      expect(await tree("incremental")).toEqual(await tree("forced"));
      return { incremental, said };
    };
    const buildKeepingGoing = (outDir: string, now: number, force = false) =>
      buildSite({
        dataDir: data,
        outDir: join(root, outDir),
        now,
        force,
        keepGoing: true,
      });
    const first = await night(friday);
    // Each episode on a line of its own, after `episodes:`.
    const warned = (summary: BuildSummary, date: string) =>
      summary.problems.filter(
        (p) =>
          p.file.endsWith("renamed.yaml") &&
          p.line === dates.indexOf(date) + 2 &&
          p.message.includes("translation keeps the show's"),
      );
    expect(first.incremental.brokenServices).toEqual([]);
    expect(warned(first.incremental, "2026-12-07")[0]?.message).toContain(
      "after the days published",
    );
    const { incremental, said } = await night(saturday);
    // Bern's check was rolled on: its new days laid out, not the whole span.
    expect(said).toContain("bern: checked day by day: laid out 2026-12-05 to 2026-12-07");
    expect(said).toContain("klassik: checked day by day");
    expect(warned(incremental, "2026-11-18")).toEqual([]);
    expect(warned(incremental, "2026-11-25")).toHaveLength(1);
    expect(warned(incremental, "2026-12-07")[0]?.message).not.toContain("after the days published");
    expect(warned(incremental, "2026-12-08")).toHaveLength(1);
    // News could not be rolled on: its CRIDs collide; laid out in full, it reports the collision.
    expect(said).toContain("news: laid out in full: its CRIDs collide");
    expect(incremental.brokenServices).toEqual(["news"]);
    expect(incremental.problems.map((p) => p.message)).toContainEqual(
      expect.stringContaining("vote-2026-results"),
    );
  });

  it("renders each night again the documents of a service with a day without grid slots, whose programmes near the span's ends depend on it: what --force writes", async () => {
    const { data, build, tree } = await setUp();
    // Sundays without slots: Saturday's overnight runs on to Monday 00:00, 48 hours.
    await edit(
      join(data, "schedules/news.yaml"),
      /^ {2}- days: \[sat, sun\]\n {4}slots:\n(?: {6}- .*\n)+/,
      0,
      () => '  - days: sat\n    slots:\n      - { start: "00:00", show: overnight }\n',
    );
    await rm(join(data, "episodes/news"), { recursive: true, force: true });
    await build("out", Date.parse("2026-11-26T08:00:00Z"));
    const night = Date.parse("2026-11-27T08:00:00Z");
    await cp(join(data, "../out"), join(data, "../forced"), { recursive: true });
    const nightly = await build("out", night);
    await build("forced", night, true);
    expect(await tree("out")).toEqual(await tree("forced"));
    // Every news document rendered again (written only where its bytes differ), of the others the new day.
    expect(renderedDocuments(nightly)).toBe(DAYS + (SERVICES.length - 1));
  });

  it("writes what a build rendering everything writes, through random edits and clock moves", async () => {
    const next = random(15);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const { data, build, tree } = await setUp();
    let now = START;
    let clean = 0;
    let reusedSteps = 0;
    const edits = [
      async () => {
        const service = pick(SERVICES);
        const n = Math.floor(next() * 5);
        await edit(
          join(data, `schedules/${service}.yaml`),
          /^ +name: \{ short: [^\n]*long: (?=[A-Z])/,
          n,
          (m) => `${m}Edited ${n} `,
        );
        return `a show name in ${service}'s schedule`;
      },
      async () => {
        const service = pick(SERVICES);
        await edit(join(data, `services/${service}.yaml`), /^ {2}long: /, 0, (m) => `${m}Edited `);
        return `${service}'s long name`;
      },
      async () => {
        await edit(join(data, "provider.yaml"), /^originator: /, 0, (m) => `${m}Edited `);
        return "the originator";
      },
      async () => "nothing",
    ];
    const moves = [0, 3_600_000, DAY_MS, 2 * DAY_MS, -DAY_MS, 9 * DAY_MS];
    for (let step = 0; step < 12; step++) {
      const what = await pick(edits)();
      now += pick(moves);
      const incremental = await build("incremental", now);
      const forced = await build("forced", now, true);
      expect(forced.reused).toBe(0);
      // Problems of services checked as recorded are those of a build that checks every one.
      expect(incremental.problems).toEqual(forced.problems);
      const label = `step ${step}: ${what}, clock ${new Date(now).toISOString()}`;
      // The reuse check (reuseCheck.ts) found every document it rendered again as published:
      // a document laid out over its day and the day either side is the whole span's.
      expect(incremental.notes, label).toEqual([]);
      const built = await tree("incremental");
      // Same history, every document rendered: byte for byte the same files.
      expect(built, label).toEqual(await tree("forced"));
      // A clean build into an empty folder: the same documents, made at its own clock.
      const fresh = `clean-${clean++}`;
      await build(fresh, now);
      expect(withoutStamps(built), label).toEqual(withoutStamps(await tree(fresh)));
      expect(incremental.rendered + incremental.reused, label).toBe(built.size);
      if (incremental.reused > 0) reusedSteps++;
    }
    // The draw must have given the incremental path work to skip, or the comparison proves little.
    expect(reusedSteps).toBeGreaterThanOrEqual(4);
  }, 300_000);
});
