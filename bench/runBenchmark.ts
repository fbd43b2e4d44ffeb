import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
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
  const args = [
    options.cli,
    "build",
    "--data",
    dataDir,
    "--out",
    outDir,
    "--now",
    options.now,
    "--json",
  ];
  const useTime = existsSync(timeBinary);
  const usageFile = join(root, "usage.json");
  const started = performance.now();
  const { stdout, stderr, code } = useTime
    ? await run(timeBinary, ["-v", process.execPath, ...args])
    : await run(process.execPath, ["--import", usageReporter, ...args], {
        SPI_BENCH_USAGE_FILE: usageFile,
      });
  const elapsed = seconds(started);
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stdout}\n${stderr}`);
  const summaryLine = stdout.split("\n").findLast((line) => line.startsWith("{"));
  const { problems: _problems, ...summary } = JSON.parse(summaryLine ?? "{}") as Record<
    string,
    unknown
  >;
  const usage = useTime
    ? {
        maxRssKb: Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]),
        cpuSeconds:
          Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1]) +
          Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1]),
      }
    : (JSON.parse(await readFile(usageFile, "utf8")) as { maxRssKb: number; cpuSeconds: number });
  return {
    seconds: elapsed,
    cpuSeconds: usage.cpuSeconds,
    peakRssMb: Math.round(usage.maxRssKb / 1024),
    summary,
  };
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
