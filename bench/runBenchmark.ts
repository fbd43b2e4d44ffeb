import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  addUnusedShows,
  renameOneShow,
  SYNTHETIC_HOST,
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

const { values: options } = parseArgs({
  options: {
    services: { type: "string", default: "100" },
    now: { type: "string", default: "2026-11-23T04:00:00Z" },
    /** Keep the temporary folder (dataset and output) for a look afterwards. */
    keep: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    /**
     * The big-input case: `validate` on one schedule of this many MB of unused shows (a warning
     * each), at a quarter, half and all of it, then a file over the limit; 0 skips it.
     */
    "big-input-mb": { type: "string", default: "1.9" },
    /** Another compiled CLI, e.g. a copy of an older dist/ to compare against. */
    cli: { type: "string", default: join(repoRoot, "dist", "cli", "main.js") },
  },
});
const serviceCount = Number(options.services);
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
try {
  const generated = performance.now();
  await writeSyntheticDataset(dataDir, serviceCount);
  log(`dataset: ${serviceCount} services in ${seconds(generated).toFixed(1)} s → ${dataDir}`);

  await settleDisk();
  const full = await build();
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
  const floor = copies.sort((a, b) => a - b)[1] as number;
  const floorTree = await scan(floorDir);
  if (floorTree.bytes !== tree.bytes) throw new Error("the copy differs in size from the build");

  await settleDisk();
  const unchanged = await build();
  const unchangedTree = await scan(outDir);
  const rewrittenUnchanged = changedFiles(tree, unchangedTree);
  log(`unchanged rebuild: ${unchanged.seconds.toFixed(2)} s`);

  await renameOneShow(dataDir, 0);
  await settleDisk();
  const oneService = await build();
  const oneServiceTree = await scan(outDir);
  const rewrittenOne = changedFiles(unchangedTree, oneServiceTree);
  const serviceFolder = `radiodns/spi/3.1/id/${SYNTHETIC_HOST}/${syntheticServiceId(0)}/`;
  const strays = rewrittenOne.filter((p) => !p.startsWith(serviceFolder));

  const bigInput = await measureBigInputs(Number(options["big-input-mb"]));

  const mb = tree.bytes / 1e6;
  const result = {
    services: serviceCount,
    documents,
    megabytes: round(mb),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memoryGb: round(totalmem() / 2 ** 30),
      node: process.version,
      loadAverageAtEnd: round(loadavg()[0] ?? 0),
    },
    fullBuild: {
      seconds: round(full.seconds),
      cpuSeconds: round(full.cpuSeconds),
      documentsPerSecond: Math.round(documents / full.seconds),
      megabytesPerSecond: round(mb / full.seconds),
      peakRssMb: full.peakRssMb,
      summary: full.summary,
    },
    copyFloor: { seconds: round(floor), megabytesPerSecond: round(mb / floor) },
    fullBuildOverFloor: round(full.seconds / floor),
    unchangedRebuild: {
      seconds: round(unchanged.seconds),
      cpuSeconds: round(unchanged.cpuSeconds),
      ofFullBuild: round(unchanged.seconds / full.seconds),
      filesRewritten: rewrittenUnchanged.length,
      peakRssMb: unchanged.peakRssMb,
      summary: unchanged.summary,
    },
    oneServiceChanged: {
      seconds: round(oneService.seconds),
      cpuSeconds: round(oneService.cpuSeconds),
      filesRewritten: rewrittenOne.length,
      filesOutsideTheService: strays.length,
      peakRssMb: oneService.peakRssMb,
      summary: oneService.summary,
    },
    bigInput,
  };

  if (options.json) {
    console.log(JSON.stringify(result));
  } else {
    const { machine } = result;
    console.log(
      [
        `spi-static benchmark: ${serviceCount} services, ${documents} documents, ${round(mb)} MB`,
        `  machine: ${machine.cpus} cores (${machine.cpu}), ${machine.memoryGb} GB, Node ${machine.node}, load average ${machine.loadAverageAtEnd}`,
        `  full build          ${fmt(full.seconds)} s (CPU ${fmt(full.cpuSeconds)} s)  ${result.fullBuild.documentsPerSecond} documents/s  ${result.fullBuild.megabytesPerSecond} MB/s  peak RSS ${full.peakRssMb} MB`,
        `  copy floor (cp -r)  ${fmt(floor)} s  ${result.copyFloor.megabytesPerSecond} MB/s (median of 3)`,
        `  full build / floor  ${result.fullBuildOverFloor}×`,
        `  unchanged rebuild   ${fmt(unchanged.seconds)} s (CPU ${fmt(unchanged.cpuSeconds)} s)  ${Math.round(result.unchangedRebuild.ofFullBuild * 100)}% of the full build, ${rewrittenUnchanged.length} files rewritten, peak RSS ${unchanged.peakRssMb} MB`,
        `  one service edited  ${fmt(oneService.seconds)} s (CPU ${fmt(oneService.cpuSeconds)} s)  ${rewrittenOne.length} files rewritten (${strays.length} outside ${syntheticServiceId(0)}), peak RSS ${oneService.peakRssMb} MB`,
        ...bigInput.map(
          (step) =>
            `  big input ${step.megabytes.toFixed(2).padStart(5)} MB  ${fmt(step.seconds)} s (CPU ${fmt(step.cpuSeconds)} s)  ` +
            `${step.unusedShows} unused shows, ${step.cpuMicrosecondsPerShow} µs CPU each, peak RSS ${step.peakRssMb} MB, exit ${step.exitCode}` +
            (step.refused ? " (refused: over the size limit)" : ""),
        ),
      ].join("\n"),
    );
  }
  if (rewrittenUnchanged.length > 0 || strays.length > 0) process.exitCode = 1;
} finally {
  if (options.keep) log(`kept ${root}`);
  else await rm(root, { recursive: true, force: true });
}

/**
 * Every measured step starts with no dirty pages waiting for the disk (`sync`), so the build and
 * the copies are timed under the same conditions and none pays for the one before.
 */
async function settleDisk(): Promise<void> {
  await timed("sync", []);
}

/** One `spi-static build` over the dataset, in its own process. */
async function build(): Promise<Run> {
  const args = ["build", "--data", dataDir, "--out", outDir, "--now", options.now, "--json"];
  const { code, stdout, stderr, ...usage } = await measure(args);
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stdout}\n${stderr}`);
  const summaryLine = stdout.split("\n").findLast((line) => line.startsWith("{"));
  const { problems: _problems, ...summary } = JSON.parse(summaryLine ?? "{}") as Record<
    string,
    unknown
  >;
  return { ...usage, summary };
}

/** The CLI with `args` in its own process: its time, CPU time, peak RSS and output. */
async function measure(args: string[]) {
  const useTime = existsSync(timeBinary);
  const usageFile = join(root, "usage.json");
  const started = performance.now();
  const { stdout, stderr, code } = useTime
    ? await run(timeBinary, ["-v", process.execPath, options.cli, ...args])
    : await run(process.execPath, ["--import", usageReporter, options.cli, ...args], {
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
      megabytes: round(size / 2 ** 20),
      unusedShows,
      refused,
      exitCode: code,
      ...usage,
      cpuMicrosecondsPerShow: Math.round((usage.cpuSeconds * 1e6) / unusedShows),
    });
    log(`big input: ${round(size / 2 ** 20)} MB validated in ${usage.seconds.toFixed(2)} s`);
    await rm(bigDir, { recursive: true, force: true });
  }
  return steps;
}

async function timed(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  const { code, stderr } = await run(command, args);
  if (code !== 0) throw new Error(`${command} failed: ${stderr}`);
  return seconds(started);
}

function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ stdout, stderr, code }));
  });
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

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function fmt(value: number): string {
  return value.toFixed(2).padStart(6);
}

function log(message: string) {
  if (!options.json) console.error(message);
}
