import { stat } from "node:fs/promises";
import { buildSite } from "../build/buildSite.js";
import { type KeySources, KeysError } from "../edge/apiKeys.js";
import { formatProblem, InputError } from "../load/text/inputProblem.js";
import type { DataReport } from "../loadAndSchedule.js";
import { addDays } from "../time/plainDate.js";
import { resolveWallTime } from "../time/wallClock.js";
import { type EpgModel, epgModel } from "./epgModel.js";
import { watchFolderTree } from "./watchFolderTree.js";

export interface SiteWatcherOptions {
  dataDir: string;
  outDir: string;
  /** A fixed clock (`--now`, UTC ms); otherwise every build takes the clock's time. */
  fixedNow: number | undefined;
  keys: KeySources;
  /** Shown with the links to keyed documents. */
  devKey: string | undefined;
  /** How long a burst of saves must be quiet before the rebuild starts. */
  debounceMs?: number;
  /** Where the terminal lines go. */
  log: (line: string) => void;
}

/** What the preview shows: the last good build, and whether the newest attempt failed. */
export interface WatchState {
  /** Counts finished builds, good or bad: the page reloads its data when it changes. */
  generation: number;
  building: boolean;
  ok: boolean;
  /** The newest attempt's errors and warnings, exactly as `validate` prints them. */
  problems: string[];
  /** When the site being served was built (ISO), if any was since the preview started. */
  builtAt: string | undefined;
}

export interface SiteWatcher {
  state(): WatchState;
  /** The EPG of the last good build. */
  model(): EpgModel | undefined;
  /** Calls `listener` after every change of state; returns how to stop. */
  subscribe(listener: (state: WatchState) => void): () => void;
  /** Resolves when no build is running: a request never sees a half-published folder. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `serve --watch`: builds the data folder into the output folder now and after every save. Saves
 * are debounced; builds run one at a time (a save during a build queues one more). A failed
 * build changes nothing that is served — publishing only starts once the data is valid — and
 * its problems are kept until a build succeeds.
 */
export async function startSiteWatcher(options: SiteWatcherOptions): Promise<SiteWatcher> {
  const { dataDir, outDir, fixedNow, keys, devKey, log, debounceMs = 150 } = options;
  const listeners = new Set<(state: WatchState) => void>();
  let state: WatchState = {
    generation: 0,
    building: false,
    ok: true,
    problems: [],
    builtAt: undefined,
  };
  let model: EpgModel | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  let debounce: NodeJS.Timeout | undefined;
  let midnight: NodeJS.Timeout | undefined;

  const update = (change: Partial<WatchState>) => {
    state = { ...state, ...change };
    for (const listener of listeners) listener(state);
  };

  async function buildOnce() {
    const now = fixedNow ?? Date.now();
    const started = performance.now();
    let validated: DataReport | undefined;
    if (!(await isFolder(dataDir))) {
      // Said as such: the build would blame what it then misses (the keys, provider.yaml).
      const problems = [
        `spi-static: ${dataDir} is gone (moved or deleted); still serving the last build until it is back`,
      ];
      for (const line of problems) log(line);
      update({ generation: state.generation + 1, ok: false, problems });
      return;
    }
    try {
      const summary = await buildSite({
        dataDir,
        outDir,
        now,
        keys,
        onValidated: (report) => {
          validated = report;
        },
        publish: { lock: { waitMs: 30_000 } },
      });
      // Up to date: the files were built from these very bytes, so validating again gives
      // the model they were rendered from.
      if (!validated)
        validated = await (await import("../loadAndSchedule.js")).loadAndSchedule(dataDir, now);
      const scheduled = validated.scheduled;
      if (!scheduled) throw new Error("the build succeeded without a laid-out schedule");
      model = epgModel({
        scheduled,
        problems: summary.problems,
        now,
        clockFixed: fixedNow !== undefined,
        devKey,
      });
      const problems = summary.problems.map(formatProblem);
      const seconds = ((performance.now() - started) / 1000).toFixed(2);
      for (const line of problems) log(line);
      log(
        `spi-static: built ${dataDir} → ${outDir} for ${summary.today} in ${seconds} s ` +
          `(${summary.written} written, ${summary.removed} removed, ${problems.length} warning(s))`,
      );
      update({
        generation: state.generation + 1,
        ok: true,
        problems,
        builtAt: new Date(now).toISOString(),
      });
      scheduleMidnight(scheduled.broadcaster.provider.timeZone, scheduled.today);
    } catch (error) {
      const problems =
        error instanceof InputError || error instanceof KeysError
          ? error.problems.map(formatProblem)
          : [`spi-static: ${error instanceof Error ? error.message : String(error)}`];
      for (const line of problems) log(line);
      log(
        `spi-static: the build failed; still serving ${state.builtAt ? `the build of ${state.builtAt}` : "what was in the output folder"}`,
      );
      update({ generation: state.generation + 1, ok: false, problems });
    }
  }

  /** Without --now the window moves at the provider's midnight: build again then. */
  function scheduleMidnight(zone: string, today: string) {
    if (fixedNow !== undefined || closed) return;
    clearTimeout(midnight);
    const wait = resolveWallTime(zone, addDays(today, 1), 0) - Date.now() + 1000;
    midnight = setTimeout(rebuild, Math.min(Math.max(wait, 1000), 2 ** 31 - 1));
  }

  function rebuild() {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    update({ building: true });
    running = (async () => {
      do {
        again = false;
        await buildOnce();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
      update({ building: false });
    });
  }

  // Watching from before the first build: a save while it runs queues the next one.
  const watcher = watchFolderTree(dataDir, () => {
    clearTimeout(debounce);
    debounce = setTimeout(rebuild, debounceMs);
  });
  rebuild();
  await running;

  return {
    state: () => state,
    model: () => model,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: async () => {
      while (running) await running;
    },
    async close() {
      closed = true;
      watcher.close();
      clearTimeout(debounce);
      clearTimeout(midnight);
      await running;
    },
  };
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
