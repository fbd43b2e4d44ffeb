import { cp, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type SiteWatcher,
  startSiteWatcher,
  type WatchState,
} from "../../src/serve/siteWatcher.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";

const BERN_PI = "radiodns/spi/3.1/id/rdns.aareradio.example/bern/20261123_PI.xml";
const LUNCH = '      - { start: "12:00", show: lunchtime }\n';

let dir: string;
let watcher: SiteWatcher;
let original: string;
const log: string[] = [];
const schedule = () => join(dir, "data/schedules/bern.yaml");

/** Resolves with the first finished build after `generation`. */
function buildAfter(generation: number): Promise<WatchState> {
  return new Promise((done) => {
    const stop = watcher.subscribe((state) => {
      if (state.generation > generation && !state.building) {
        stop();
        done(state);
      }
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "spi-watch-"));
  await cp(DATA_DIR, join(dir, "data"), { recursive: true });
  original = await readFile(schedule(), "utf8");
  watcher = await startSiteWatcher({
    dataDir: join(dir, "data"),
    outDir: join(dir, "out"),
    fixedNow: Date.parse(BUILD_NOW),
    keys: {},
    devKey: undefined,
    debounceMs: 300,
    log: (line) => log.push(line),
  });
});

afterAll(async () => {
  await watcher.close();
});

describe("serve --watch's builder", () => {
  it("builds at start and reports the warnings as validate prints them", () => {
    const state = watcher.state();
    expect(state).toMatchObject({ generation: 1, ok: true, building: false });
    expect(state.problems.some((p) => /news\.yaml:\d+:\d+ .*warning: /.test(p))).toBe(true);
    expect(watcher.model()?.day("2026-11-23")?.rows).toHaveLength(5);
  });

  it("keeps the published files and the model of the last good build when a save is invalid", async () => {
    const before = await readFile(join(dir, "out", BERN_PI));
    const model = watcher.model();
    const failed = buildAfter(watcher.state().generation);
    await writeFile(
      schedule(),
      original.replace(LUNCH, '      - { start: "12:60", show: lunchtime }\n'),
    );
    const state = await failed;
    expect(state.ok).toBe(false);
    expect(state.problems.find((p) => !p.includes("warning:"))).toMatch(
      /^\S+data\/schedules\/bern\.yaml:\d+:\d+ grid\[0\]\.slots\[2\]\.start: "12:60" is not a time of day/,
    );
    expect(log.some((line) => line.includes("the build failed; still serving"))).toBe(true);
    expect(watcher.model()).toBe(model);
    expect(await readFile(join(dir, "out", BERN_PI))).toEqual(before);
  });

  it("turns a burst of saves into one build, and a save during a build into one more", async () => {
    const start = watcher.state().generation;
    const fixed = buildAfter(start);
    for (let i = 0; i < 5; i++) await writeFile(schedule(), original);
    expect((await fixed).ok).toBe(true);
    expect(watcher.state().generation).toBe(start + 1);

    // Saved while the build runs: that build finishes, then one more starts with the new bytes.
    const building = new Promise<void>((done) => {
      const stop = watcher.subscribe((state) => {
        if (state.building) {
          stop();
          done();
        }
      });
    });
    const gappy = original.replace(
      LUNCH,
      '      - { start: "12:00", end: "12:45", show: lunchtime }\n',
    );
    await writeFile(schedule(), original.replace(LUNCH, `${LUNCH}`));
    await building;
    await writeFile(schedule(), gappy);
    await watcher.idle();
    await new Promise((done) => setTimeout(done, 600)); // past the debounce of the second save
    await watcher.idle();
    const bern = watcher
      .model()
      ?.day("2026-11-23")
      ?.rows.find((r) => r.serviceId === "bern");
    expect(bern?.blocks.some((b) => b.type === "gap")).toBe(true);
    expect(await readFile(join(dir, "out", BERN_PI), "utf8")).toContain('duration="PT45M"');
  });

  it("sees every save of an editor that writes a new file and renames it over the old one", async () => {
    for (const end of ["12:50", "12:55"]) {
      const built = buildAfter(watcher.state().generation);
      const saved = original.replace(
        LUNCH,
        `      - { start: "12:00", end: "${end}", show: lunchtime }\n`,
      );
      await writeFile(`${schedule()}.swp`, saved);
      await rename(`${schedule()}.swp`, schedule());
      expect((await built).ok).toBe(true);
      const bern = watcher
        .model()
        ?.day("2026-11-23")
        ?.rows.find((r) => r.serviceId === "bern");
      expect(bern?.blocks.find((b) => b.type === "gap")?.time).toBe(`${end}–13:00`);
    }
  });

  it("watches schedules/ again when a new folder replaces it (re-running import, switching branches)", async () => {
    const schedules = join(dir, "data/schedules");
    await cp(schedules, `${schedules}.new`, { recursive: true });
    await rename(schedules, `${schedules}.old`);
    await rename(`${schedules}.new`, schedules);
    await rm(`${schedules}.old`, { recursive: true });
    await settled();
    await writeFile(schedule(), original.replace(LUNCH, LUNCH.replace("12:00", "12:10")));
    await until(() => lunchStart() === "12:10");
  });

  it("says the data folder is gone when it is, serves the last build, and watches it again when it is back", async () => {
    const data = join(dir, "data");
    await rename(data, `${data}.away`);
    const gone = await until(() => watcher.state().problems.some((p) => p.includes("is gone")));
    expect(gone.ok).toBe(false);
    expect(gone.problems).toEqual([
      `spi-static: ${data} is gone (moved or deleted); still serving the last build until it is back`,
    ]);
    expect(lunchStart()).toBe("12:10");
    await cp(`${data}.away`, data, { recursive: true });
    await until(() => watcher.state().ok);
    await settled();
    await writeFile(schedule(), original.replace(LUNCH, LUNCH.replace("12:00", "12:20")));
    await until(() => lunchStart() === "12:20");
  });
});

/** When the lunchtime show starts on Bern's first day, as the preview's model shows it. */
function lunchStart(): string | undefined {
  const bern = watcher
    .model()
    ?.day("2026-11-23")
    ?.rows.find((r) => r.serviceId === "bern");
  const lunch = bern?.blocks.find((b) => b.type !== "gap" && /^12:/.test(b.time));
  return lunch?.time.slice(0, 5);
}

/** Resolves with the state once `done()` holds after a finished build; fails after 15 s. */
async function until(done: () => boolean): Promise<WatchState> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    await watcher.idle();
    if (done()) return watcher.state();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not reached; the watcher's state: ${JSON.stringify(watcher.state())}`);
}

/** No build running or waiting for a quiet moment: what follows is a save of its own. */
async function settled(): Promise<void> {
  const before = watcher.state().generation;
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await watcher.idle();
  if (watcher.state().generation !== before) await settled();
}
