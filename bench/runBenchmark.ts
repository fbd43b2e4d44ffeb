import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { cpus, freemem, loadavg, tmpdir, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { edgeCases, measureEdgeRules, measurePreviewUnderLoad } from "./measureEdge.js";
import { measureNginx } from "./measureNginx.js";
import { measureVerify } from "./measureVerify.js";
import { renderInMemory } from "./renderInMemory.js";
import { runProcess } from "./runProcess.js";
import {
  addUnusedShows,
  editOneShow,
  SYNTHETIC_HOST,
  SYNTHETIC_KEY,
  syntheticServiceId,
  writeSyntheticDataset,
} from "./syntheticDataset.js";

/**
 * `npm run bench [-- --services 1000]`: the build at broadcaster or aggregator scale, against the
 * physical floor of writing the same tree. Each build runs the compiled CLI in its own process,
 * so its peak RSS and CPU time are the build's own.
 */

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const timeBinary = "/usr/bin/time";
/** Fallback when there is no GNU time: the child reports its own peak RSS and CPU on exit. */
const usageReporter = fileURLToPath(new URL("reportResourceUsage.js", import.meta.url));
/** The parse floor: the project's reader on every data file, every core, nothing else. */
const parseFloorScript = fileURLToPath(new URL("parseFloor.js", import.meta.url));

const { values: options } = parseArgs({
  options: {
    services: { type: "string", default: "100" },
    /** An aggregator's dataset (fewer episodes per service): --services 10000 fits a disk. */
    aggregator: { type: "boolean", default: false },
    now: { type: "string", default: "2026-11-23T04:00:00Z" },
    /** Keep the temporary folder (dataset and output) for a look afterwards. */
    keep: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    /** Rounds of the whole sequence (full, floor, unchanged, edit, nightly); medians reported. */
    rounds: { type: "string", default: "1" },
    /**
     * The big-input case: `validate` on one schedule of this many MB of unused shows (a warning
     * each), at a quarter, half and all of it, then a file over the limit; 0 skips it.
     */
    "big-input-mb": { type: "string", default: "1.9" },
    /** Another compiled CLI, e.g. a copy of an older dist/ to compare against. */
    cli: { type: "string", default: join(repoRoot, "dist", "cli", "main.js") },
  },
});
const DAY_MS = 86_400_000;
const loadAverageAtStart = round2(loadavg()[0] ?? 0);
const serviceCount = Number(options.services);
const shape = options.aggregator ? "aggregator" : "broadcaster";
if (!Number.isInteger(serviceCount) || serviceCount < 1) {
  throw new Error(`--services must be a positive integer, not ${options.services}`);
}

interface Run {
  seconds: number;
  /** User + system CPU time of the build process: less sensitive than wall time to other load. */
  cpuSeconds: number;
  peakRssMb: number;
  /** The CLI's --json summary, without its list of problems. */
  summary: Record<string, unknown>;
  /** CPU time of the build's reuse check step (SPI_STATIC_DEBUG=timing), 0 when it did not run. */
  reuseCheckCpuSeconds: number;
}

interface Tree {
  bytes: number;
  /** path → mtime and inode: a file rewritten (even atomically) changes one of them. */
  stamps: Map<string, string>;
}

const root = await mkdtemp(join(tmpdir(), "spi-bench-"));
const dataDir = join(root, "data");
const outDir = join(root, "out");
const floorDir = join(root, "floor");
/**
 * The copy floor again on a RAM-backed folder when the machine has one: a disk that skips
 * recently deleted inodes made the disk's floor swing tenfold from one minute to the next.
 */
const ramRoot = existsSync("/dev/shm")
  ? await mkdtemp("/dev/shm/spi-bench-").catch(() => undefined)
  : undefined;
const ramFloorDir = ramRoot === undefined ? undefined : join(ramRoot, "floor");
const rounds = Number(options.rounds);
if (!Number.isInteger(rounds) || rounds < 1) {
  throw new Error(`--rounds must be a positive integer, not ${options.rounds}`);
}
const startClock = Date.parse(options.now);
try {
  const generated = performance.now();
  await writeSyntheticDataset(dataDir, serviceCount, shape);
  log(`dataset: ${serviceCount} services in ${seconds(generated).toFixed(1)} s → ${dataDir}`);

  const measured: RoundResult[] = [];
  for (let round = 0; round < rounds; round++) {
    // Each round starts from the same data and an empty folder, a day later than the last:
    // the copy and the builds alternate, so a busy minute on the machine hits both.
    if (round > 0) await writeSyntheticDataset(dataDir, serviceCount, shape);
    await letDataFilesSettle();
    await rm(outDir, { recursive: true, force: true });
    measured.push(await measureRound(startClock + round * 3 * DAY_MS));
    log(`round ${round + 1} of ${rounds} done`);
  }
  // The edge on the last round's folder, at the clock of its nightly build.
  const edgeClock = new Date(startClock + (rounds - 1) * 3 * DAY_MS + DAY_MS).toISOString();
  const cases = edgeCases(
    SYNTHETIC_HOST,
    syntheticServiceId(0),
    edgeClock.slice(0, 10).replaceAll("-", ""),
    SYNTHETIC_KEY,
  );
  const edgeRules = await measureEdgeRules(outDir, edgeClock, cases);
  log(`edge rules: ${edgeRules.map((r) => `${r.name} ${r.requestsPerSecond}/s`).join(", ")}`);
  const preview = await measurePreviewUnderLoad(options.cli, outDir, edgeClock, cases);
  log(`preview: p99 ${preview.p99Ms} ms, ${preview.errors} errors`);
  const verify = await measureVerify(options.cli, outDir, edgeClock, SYNTHETIC_KEY);
  log(
    `verify: peak ${verify.peakRssMb} MB in ${verify.seconds} s, ${verify.ok ? "passed" : `failed: ${verify.failed}`}`,
  );
  const nginx = await measureNginx(options.cli, outDir, edgeClock, cases);
  const renderAnchor = await measureRenderAnchor(
    startClock + (rounds - 1) * 3 * DAY_MS + 2 * DAY_MS,
  );
  const bigInput = await measureBigInputs(Number(options["big-input-mb"]));

  const first = measured[0] as RoundResult;
  const { documents, bytes } = first;
  const mb = bytes / 1e6;
  const median = (pick: (r: RoundResult) => number) => round2(medianOf(measured.map(pick)));
  const floor = median((r) => r.floor);
  const parseFloor = median((r) => r.parse.seconds);
  const full = median((r) => r.full.seconds);
  const step = (pick: (r: RoundResult) => Run) => ({
    seconds: median((r) => pick(r).seconds),
    cpuSeconds: median((r) => pick(r).cpuSeconds),
    overFloor: median((r) => pick(r).seconds / r.floor),
    ofFullBuild: median((r) => pick(r).seconds / r.full.seconds),
    peakRssMb: median((r) => pick(r).peakRssMb),
    summary: pick(measured.at(-1) as RoundResult).summary,
    /** The reuse check's CPU over the rest of the build's (issue 33's goal: at most 0.1). */
    reuseCheckShare: median((r) => {
      const { cpuSeconds, reuseCheckCpuSeconds } = pick(r);
      return reuseCheckCpuSeconds / (cpuSeconds - reuseCheckCpuSeconds);
    }),
  });
  const result = {
    services: serviceCount,
    shape,
    documents,
    megabytes: round2(mb),
    rounds,
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memoryGb: round2(totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtStart,
      loadAverageAtEnd: round2(loadavg()[0] ?? 0),
    },
    copyFloor: {
      how: "cp -r of the built tree into an empty folder after sync, page cache warm, median of 3",
      seconds: floor,
      megabytesPerSecond: round2(mb / floor),
    },
    parseFloor: {
      how: "the compiled parse workers of the CLI's dist/, one per core, on every data file, nothing else (bench/parseFloor.ts)",
      seconds: parseFloor,
      cpuSeconds: median((r) => r.parse.cpuSeconds),
      peakRssMb: median((r) => r.parse.peakRssMb),
      threads: first.parseThreads,
    },
    fullBuild: {
      ...step((r) => r.full),
      documentsPerSecond: Math.round(documents / full),
      megabytesPerSecond: round2(mb / full),
    },
    ramCopyFloor:
      first.ramFloor === undefined
        ? undefined
        : {
            how: "cp -r of the built tree into /dev/shm (RAM), median of 3",
            seconds: median((r) => r.ramFloor ?? 0),
          },
    fullBuildOverFloor: median((r) => r.full.seconds / r.floor),
    /** Issue 23's goal: at most 1.5; the copy floor on RAM when there is one, else on disk. */
    fullBuildOverParseAndCopyFloor: median(
      (r) => r.full.seconds / (r.parse.seconds + (r.ramFloor ?? r.floor)),
    ),
    fullBuildOverParseAndDiskCopyFloor: median((r) => r.full.seconds / (r.parse.seconds + r.floor)),
    /** CPU against CPU: what a busy machine's wall clock cannot skew. */
    fullBuildCpuOverParseFloorCpu: median((r) => r.full.cpuSeconds / r.parse.cpuSeconds),
    unchangedRebuild: {
      ...step((r) => r.unchanged),
      filesRewritten: Math.max(...measured.map((r) => r.rewrittenUnchanged)),
    },
    oneServiceChanged: {
      ...step((r) => r.oneService),
      filesRewritten: Math.max(...measured.map((r) => r.rewrittenOne)),
      filesOutsideTheService: Math.max(...measured.map((r) => r.strays)),
    },
    nightlyDayRoll: {
      ...step((r) => r.nightly),
      filesRewritten: Math.max(...measured.map((r) => r.rewrittenNightly)),
    },
    ciNightly: step((r) => r.ciNightly),
    edgeRules,
    preview,
    nginx,
    renderAnchor,
    bigInput,
  };

  if (options.json) {
    console.log(JSON.stringify(result));
  } else {
    const { machine } = result;
    const line = (name: string, s: ReturnType<typeof step>, extra: string) =>
      `  ${name.padEnd(19)} ${fmt(s.seconds)} s (CPU ${fmt(s.cpuSeconds)} s)  ${String(s.overFloor).padStart(5)}× floor  ${String(Math.round(s.ofFullBuild * 100)).padStart(3)}% of full  peak RSS ${s.peakRssMb} MB  ${extra}`;
    console.log(
      [
        `spi-static benchmark: ${serviceCount} services (${shape}), ${documents} documents, ${round2(mb)} MB, medians of ${rounds} round(s)`,
        `  machine: ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, load average ${machine.loadAverageAtStart} → ${machine.loadAverageAtEnd}`,
        `  copy floor (cp -r)  ${fmt(floor)} s  ${result.copyFloor.megabytesPerSecond} MB/s (page cache, median of 3 per round)`,
        `  parse floor         ${fmt(parseFloor)} s (CPU ${fmt(result.parseFloor.cpuSeconds)} s)  peak RSS ${result.parseFloor.peakRssMb} MB  the project's parser on every data file, ${result.parseFloor.threads} threads, nothing else`,
        `  copy floor on RAM   ${result.ramCopyFloor === undefined ? "  (no /dev/shm, or the tree does not fit)" : `${fmt(result.ramCopyFloor.seconds)} s`}`,
        `  full build ÷ (parse floor + copy floor): ${result.fullBuildOverParseAndCopyFloor}× (goal ≤ 1.5; copy floor ${result.ramCopyFloor === undefined ? "on disk" : `on RAM, ${result.fullBuildOverParseAndDiskCopyFloor}× with the disk's`})`,
        `  full build CPU ÷ parse floor CPU: ${result.fullBuildCpuOverParseFloorCpu}×`,
        line(
          "full build",
          result.fullBuild,
          `${result.fullBuild.documentsPerSecond} documents/s, ${result.fullBuild.megabytesPerSecond} MB/s`,
        ),
        line(
          "unchanged rebuild",
          result.unchangedRebuild,
          `${result.unchangedRebuild.filesRewritten} files rewritten`,
        ),
        line(
          "nightly day-roll",
          result.nightlyDayRoll,
          `${result.nightlyDayRoll.filesRewritten} files rewritten`,
        ),
        line(
          "CI nightly",
          result.ciNightly,
          `${result.ciNightly.summary.written} written, ${result.ciNightly.summary.reused} reused (fresh data copy, out/ restored with new inodes)`,
        ),
        line(
          "one service edited",
          result.oneServiceChanged,
          `${result.oneServiceChanged.filesRewritten} files rewritten (${result.oneServiceChanged.filesOutsideTheService} outside ${syntheticServiceId(0)})`,
        ),
        `  reuse check (CPU of its step over the rest of the build's; goal ≤ 10 % of a nightly): ${(
          [
            ["nightly day-roll", result.nightlyDayRoll],
            ["CI nightly", result.ciNightly],
            ["one service edited", result.oneServiceChanged],
          ] as const
        )
          .map(([name, s]) => `${name} ${Math.round(s.reuseCheckShare * 100)} %`)
          .join(", ")}`,
        `  edge rules, in process, one core: ${edgeRules.map((r) => `${r.name} (${r.status}) ${r.requestsPerSecond} requests/s`).join(", ")}`,
        `  nginx + njs on loopback, one worker process, wrk 1 thread 32 connections: ${
          typeof nginx === "string"
            ? nginx
            : nginx
                .map(
                  (r) =>
                    `${r.name} (${r.status}) ${r.requestsPerSecond} requests/s (worker CPU ${r.cpuMicrosecondsPerRequest} µs each: ${r.requestsPerCoreSecond}/s per core), p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`,
                )
                .join("; ")
        }`,
        `  render against Python's ElementTree: ${
          typeof renderAnchor === "string"
            ? renderAnchor
            : `spi-static ${renderAnchor.documents} documents in ${renderAnchor.cpuSeconds} s CPU, ElementTree ${renderAnchor.elementTree.documents} in ${renderAnchor.elementTree.cpuSeconds} s CPU (Python ${renderAnchor.elementTree.python}): ${renderAnchor.timesFaster}× (goal ≥ 5)`
        }`,
        `  preview under load: ${preview.requests} requests, ${preview.concurrency} at once, ${preview.requestsPerSecond} requests/s, p50 ${preview.p50Ms} ms, p99 ${preview.p99Ms} ms, max ${preview.maxMs} ms, ${preview.errors} errors`,
        ...bigInput.map(
          (step) =>
            `  big input ${step.megabytes.toFixed(2).padStart(5)} MB  ${fmt(step.seconds)} s (CPU ${fmt(step.cpuSeconds)} s)  ` +
            `${step.unusedShows} unused shows, ${step.cpuMicrosecondsPerShow} µs CPU each, peak RSS ${step.peakRssMb} MB, exit ${step.exitCode}` +
            (step.refused ? " (refused: over the size limit)" : ""),
        ),
      ].join("\n"),
    );
  }
  const { unchangedRebuild, oneServiceChanged, nightlyDayRoll } = result;
  if (
    unchangedRebuild.filesRewritten > 0 ||
    oneServiceChanged.filesOutsideTheService > 0 ||
    nightlyDayRoll.filesRewritten > serviceCount ||
    preview.errors > 0
  ) {
    process.exitCode = 1;
  }
} finally {
  if (ramRoot !== undefined) await rm(ramRoot, { recursive: true, force: true });
  if (options.keep) log(`kept ${root}`);
  else await rm(root, { recursive: true, force: true });
}

interface RoundResult {
  documents: number;
  bytes: number;
  floor: number;
  /** The copy floor into a RAM-backed folder (/dev/shm), when there is one. */
  ramFloor: number | undefined;
  /** The parse floor, measured once a round right after the full build read the same files. */
  parse: Omit<Run, "summary" | "reuseCheckCpuSeconds">;
  parseThreads: number;
  full: Run;
  unchanged: Run;
  oneService: Run;
  nightly: Run;
  ciNightly: Run;
  rewrittenUnchanged: number;
  rewrittenOne: number;
  strays: number;
  rewrittenNightly: number;
}

/**
 * One round: a full build into an empty folder at `now`, the copy floor of its tree, a rebuild
 * of the same data at the same clock, one service's schedule edited, then the next night (the
 * clock a day later, nothing else changed) into the same folder, then the night after as a CI
 * runner meets it (ciNightly): the data checked out afresh and out/ restored from a cache.
 */
async function measureRound(now: number): Promise<RoundResult> {
  await settleDisk();
  const full = await build(now);
  const tree = await scan(outDir);
  const documents = [...tree.stamps.keys()].filter((p) => p.endsWith(".xml")).length;
  log(`full build: ${full.seconds.toFixed(2)} s`);
  // A copy's time swings with the page cache's writeback; the median of three is steadier.
  const copies: number[] = [];
  for (let copy = 0; copy < 3; copy++) {
    await rm(floorDir, { recursive: true, force: true });
    await settleDisk();
    copies.push(await timed("cp", ["-r", outDir, floorDir]));
  }
  const floor = medianOf(copies);
  const floorTree = await scan(floorDir);
  await rm(floorDir, { recursive: true, force: true });
  if (floorTree.bytes !== tree.bytes) throw new Error("the copy differs in size from the build");
  const ramCopies: number[] = [];
  // A RAM copy only while the tree fits in half the free memory (10,000 services: 23 GB).
  const fitsInRam = tree.bytes < freemem() / 2;
  if (!fitsInRam) log("copy floor on RAM: skipped, the tree is over half the free memory");
  for (let copy = 0; fitsInRam && ramFloorDir !== undefined && copy < 3; copy++) {
    await rm(ramFloorDir, { recursive: true, force: true });
    ramCopies.push(await timed("cp", ["-r", outDir, ramFloorDir]));
  }
  if (ramFloorDir !== undefined) await rm(ramFloorDir, { recursive: true, force: true });
  const ramFloor = ramCopies.length > 0 ? medianOf(ramCopies) : undefined;
  const { code, stdout, stderr, ...parse } = await measure(
    [dirname(dirname(options.cli)), dataDir],
    parseFloorScript,
  );
  if (code !== 0) throw new Error(`the parse floor failed (exit ${code}):\n${stdout}\n${stderr}`);
  const parseThreads = (JSON.parse(stdout) as { threads: number }).threads;
  log(`parse floor: ${parse.seconds.toFixed(2)} s`);

  await settleDisk();
  const unchanged = await build(now);
  const unchangedTree = await scan(outDir);
  log(`unchanged rebuild: ${unchanged.seconds.toFixed(2)} s`);

  await editOneShow(dataDir, 0);
  await settleDisk();
  const oneService = await build(now);
  const oneServiceTree = await scan(outDir);
  const rewrittenOne = changedFiles(unchangedTree, oneServiceTree);
  const serviceFolder = `radiodns/spi/3.1/id/${SYNTHETIC_HOST}/${syntheticServiceId(0)}/`;
  log(`one service edited: ${oneService.seconds.toFixed(2)} s`);

  await settleDisk();
  const nightly = await build(now + DAY_MS);
  const nightlyTree = await scan(outDir);
  log(`nightly day-roll: ${nightly.seconds.toFixed(2)} s`);

  await restoreAsOnAFreshRunner();
  await settleDisk();
  const ciNightly = await build(now + 2 * DAY_MS);
  log(`CI nightly: ${ciNightly.seconds.toFixed(2)} s`);
  return {
    documents,
    bytes: tree.bytes,
    floor,
    ramFloor,
    parse,
    parseThreads,
    full,
    unchanged,
    oneService,
    nightly,
    ciNightly,
    rewrittenUnchanged: changedFiles(tree, unchangedTree).length,
    rewrittenOne: rewrittenOne.length,
    strays: rewrittenOne.filter((p) => !p.startsWith(serviceFolder)).length,
    rewrittenNightly: changedFiles(oneServiceTree, nightlyTree).length,
  };
}

/**
 * What a fresh CI runner starts from: a new checkout of the data and out/ restored from a cache,
 * every file with a new inode and new times, so no recorded file state vouches for any of them.
 */
async function restoreAsOnAFreshRunner(): Promise<void> {
  for (const dir of [dataDir, outDir]) {
    await rename(dir, `${dir}-cached`);
    await cp(`${dir}-cached`, dir, { recursive: true });
    await rm(`${dir}-cached`, { recursive: true, force: true });
  }
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Every measured step starts with no dirty pages waiting for the disk (`sync`), so the build and
 * the copies are timed under the same conditions and none pays for the one before.
 */
async function settleDisk(): Promise<void> {
  await timed("sync", []);
}

/** One `spi-static build` over the dataset at the clock `now`, in its own process. */
async function build(now: number): Promise<Run> {
  const clock = new Date(now).toISOString();
  const args = ["build", "--data", dataDir, "--out", outDir, "--now", clock, "--json"];
  const { code, stdout, stderr, ...usage } = await measure(args, options.cli, {
    SPI_STATIC_DEBUG: "timing",
  });
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stdout}\n${stderr}`);
  const summaryLine = stdout.split("\n").findLast((line) => line.startsWith("{"));
  const { problems: _problems, ...summary } = JSON.parse(summaryLine ?? "{}") as Record<
    string,
    unknown
  >;
  const reuseCheck = /^spi-static debug timing: reuse check: \d+ ms \(CPU (\d+) ms\)$/m.exec(
    stderr,
  );
  return { ...usage, summary, reuseCheckCpuSeconds: Number(reuseCheck?.[1] ?? 0) / 1000 };
}

/**
 * Waits until the data files just written count as settled for the build's digest record
 * (SETTLED_MS in src/build/fileState.ts), as the files of a repository checked out before the
 * build do: otherwise the one-service edit would read and hash every file again, as a build
 * does only right after the data folder was written.
 */
async function letDataFilesSettle(): Promise<void> {
  const fileState = pathToFileURL(join(repoRoot, "dist", "build", "fileState.js")).href;
  const { SETTLED_MS } = (await import(fileState)) as { SETTLED_MS: number };
  await new Promise((done) => setTimeout(done, SETTLED_MS + 100));
}

/** The CLI (or another script) with `args` in its own process: its time, CPU, peak RSS, output. */
async function measure(args: string[], script = options.cli, env: Record<string, string> = {}) {
  const useTime = existsSync(timeBinary);
  const usageFile = join(root, "usage.json");
  const started = performance.now();
  const { stdout, stderr, code } = useTime
    ? await runProcess(timeBinary, ["-v", process.execPath, script, ...args], env)
    : await runProcess(process.execPath, ["--import", usageReporter, script, ...args], {
        ...env,
        SPI_BENCH_USAGE_FILE: usageFile,
      });
  const elapsed = seconds(started);
  const usage = useTime
    ? {
        maxRssKb: Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]),
        cpuSeconds:
          Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1]) +
          Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1]),
      }
    : (JSON.parse(await readFile(usageFile, "utf8")) as { maxRssKb: number; cpuSeconds: number });
  return {
    code,
    stdout,
    stderr,
    seconds: elapsed,
    cpuSeconds: usage.cpuSeconds,
    peakRssMb: Math.round(usage.maxRssKb / 1024),
  };
}

/**
 * The marshaller anchor: the render stage in memory (the model loaded and laid out first,
 * untimed) against the system python3's ElementTree rebuilding and serialising the same
 * published documents from plain data (bench/python/renderWithElementTree.py), CPU against CPU,
 * medians of the rounds. Up to 100 services: it is a ratio, and both sides hold every document
 * (the Python side's trees reached 10 GB and 11 CPU minutes at 1,000 services, unfinished).
 */
async function measureRenderAnchor(now: number) {
  if (serviceCount > 100) return "not measured above 100 services";
  const script = join(repoRoot, "bench", "python", "renderWithElementTree.py");
  const python = await runProcess("python3", [
    ...[script, "--site", outDir, "--rounds", String(rounds), "--json"],
  ]);
  if (python.code !== 0) {
    return `not measured: python3 failed (${python.stderr.trim().split("\n").pop()})`;
  }
  const elementTree = JSON.parse(python.stdout) as {
    documents: number;
    cpuSeconds: number;
    python: string;
  };
  const ours = await renderInMemory(dataDir, now, rounds);
  const cpuSeconds = round2(medianOf(ours.cpuSeconds));
  return {
    documents: ours.documents,
    cpuSeconds,
    elementTree,
    timesFaster: round2(elementTree.cpuSeconds / cpuSeconds),
  };
}

/**
 * `validate` on a one-service broadcaster whose schedule holds `megabytes` of shows that nothing
 * uses, at a quarter, half and all of that size: the time per show stays flat when locating the
 * warnings is linear (it grew with the file before). Then a file just over the size limit,
 * refused before it is parsed.
 */
async function measureBigInputs(megabytes: number) {
  if (!(megabytes > 0)) return [];
  const steps = [];
  for (const share of [0.25, 0.5, 1, 1.6]) {
    const bigDir = join(root, `big-${share}`);
    await writeSyntheticDataset(bigDir, 1);
    const unusedShows = await addUnusedShows(bigDir, 0, megabytes * share * 2 ** 20);
    const size = (await stat(join(bigDir, "schedules", `${syntheticServiceId(0)}.yaml`))).size;
    const { code, stdout, stderr, ...usage } = await measure([
      "validate",
      "--data",
      bigDir,
      "--now",
      options.now,
      "--json",
    ]);
    const report = JSON.parse(stdout || "{}") as { errors?: number; warnings?: number };
    const refused = report.errors === 1 && report.warnings === 0;
    if (share <= 1 && report.warnings !== unusedShows) {
      throw new Error(`validate did not report what the big input holds:\n${stdout}\n${stderr}`);
    }
    steps.push({
      megabytes: round2(size / 2 ** 20),
      unusedShows,
      refused,
      exitCode: code,
      ...usage,
      cpuMicrosecondsPerShow: Math.round((usage.cpuSeconds * 1e6) / unusedShows),
    });
    log(`big input: ${round2(size / 2 ** 20)} MB validated in ${usage.seconds.toFixed(2)} s`);
    await rm(bigDir, { recursive: true, force: true });
  }
  return steps;
}

async function timed(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const { code, stderr } = await runProcess(command, args);
  if (code !== 0) throw new Error(`${command} failed: ${stderr}`);
  return seconds(started);
}

async function scan(dir: string): Promise<Tree> {
  const tree: Tree = { bytes: 0, stamps: new Map() };
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    tree.bytes += info.size;
    tree.stamps.set(path.slice(dir.length + 1), `${info.mtimeMs}:${info.ino}`);
  }
  return tree;
}

/** Documents written between two scans; the publisher's own bookkeeping files do not count. */
function changedFiles(before: Tree, after: Tree): string[] {
  return [...after.stamps]
    .filter(([path, stamp]) => path.endsWith(".xml") && before.stamps.get(path) !== stamp)
    .map(([path]) => path);
}

function seconds(since: number): number {
  return (performance.now() - since) / 1000;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

function fmt(value: number): string {
  return value.toFixed(2).padStart(6);
}

function log(message: string) {
  if (!options.json) console.error(message);
}
