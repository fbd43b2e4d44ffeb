import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { renderInMemory } from "./renderInMemory.js";
import { runProcess } from "./runProcess.js";
import { writeSyntheticDataset } from "./syntheticDataset.js";

/**
 * `npm run bench:python`: spi-static against python-hybridspi (magicbadger/python-hybridspi, an
 * ETSI TS 102 818 XML marshaller) on the benchmark's 20-service dataset (342 documents).
 * Ours: full builds into an empty folder (load, validate, lay out, render, write), and the
 * render alone from the in-memory model. Theirs: marshalling the same documents to strings
 * from its in-memory objects (bench/python/renderWithHybridSpi.py). Medians of `--rounds`.
 *
 * Needs a Python with python-dateutil and isodate ($HYBRIDSPI_PYTHON, else python3) and the
 * library ($HYBRIDSPI_SRC: its `src` folder; else `spi` must be importable). Skips, exit 0,
 * when either is missing: it is never part of `npm test`.
 */

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const cli = join(repoRoot, "dist", "cli", "main.js");
const pythonScript = join(repoRoot, "bench", "python", "renderWithHybridSpi.py");
const usageReporter = fileURLToPath(new URL("reportResourceUsage.js", import.meta.url));
const timeBinary = "/usr/bin/time";

const { values: options } = parseArgs({
  options: {
    services: { type: "string", default: "20" },
    now: { type: "string", default: "2026-11-23T04:00:00Z" },
    rounds: { type: "string", default: "3" },
    json: { type: "boolean", default: false },
  },
});
const rounds = Number(options.rounds);
const python = process.env.HYBRIDSPI_PYTHON ?? "python3";
const library = process.env.HYBRIDSPI_SRC;

const probe = spawnSync(
  python,
  ["-c", "import sys; sys.path[:0] = sys.argv[1:]; import spi.xml", ...(library ? [library] : [])],
  { encoding: "utf8" },
);
if (probe.status !== 0) {
  const why = probe.error ? `${python} not found` : (probe.stderr.trim().split("\n").pop() ?? "");
  console.log(
    `bench:python skipped: python-hybridspi cannot be run (${why}). Set HYBRIDSPI_SRC to the ` +
      "src folder of a python-hybridspi checkout and HYBRIDSPI_PYTHON to a Python with " +
      "python-dateutil and isodate (see BENCHMARKS.md).",
  );
  process.exit(0);
}

const loadAverageAtStart = loadavg()[0] ?? 0;
const root = await mkdtemp(join(tmpdir(), "spi-bench-python-"));
try {
  const dataDir = join(root, "data");
  await writeSyntheticDataset(dataDir, Number(options.services));
  const now = Date.parse(options.now);

  const builds: Usage[] = [];
  for (let round = 0; round < rounds; round++) {
    const outDir = join(root, `out-${round}`);
    builds.push(
      await measure(["build", "--data", dataDir, "--out", outDir, "--now", options.now, "--json"]),
    );
  }
  const measured = await renderInMemory(dataDir, now, rounds);
  const renders = {
    documents: measured.documents,
    seconds: measured.seconds.map(round2),
    cpuSeconds: measured.cpuSeconds.map(round2),
  };
  const theirs = await runPython(join(root, `out-${rounds - 1}`));

  const ours = {
    fullBuild: {
      seconds: median(builds.map((b) => b.seconds)),
      cpuSeconds: median(builds.map((b) => b.cpuSeconds)),
    },
    renderOnly: {
      documents: renders.documents,
      seconds: median(renders.seconds),
      cpuSeconds: median(renders.cpuSeconds),
    },
  };
  const result = {
    services: Number(options.services),
    rounds,
    loadAverage: [round2(loadAverageAtStart), round2(loadavg()[0] ?? 0)],
    spiStatic: {
      ...ours,
      builds,
      renderRounds: renders.seconds,
      renderCpuRounds: renders.cpuSeconds,
    },
    hybridSpi: theirs,
    // Theirs is one thread marshalling; CPU against CPU is the steadier ratio on a busy machine.
    timesFaster: {
      fullBuildWall: round2(theirs.seconds / ours.fullBuild.seconds),
      fullBuildCpu: round2(theirs.cpuSeconds / ours.fullBuild.cpuSeconds),
      renderOnlyWall: round2(theirs.seconds / ours.renderOnly.seconds),
      renderOnlyCpu: round2(theirs.cpuSeconds / ours.renderOnly.cpuSeconds),
    },
  };
  if (options.json) {
    console.log(JSON.stringify(result));
  } else {
    const { fullBuild, renderOnly } = ours;
    console.log(
      [
        `${result.services} services, ${theirs.documents} documents, medians of ${rounds}; ` +
          `load average ${result.loadAverage.join(" → ")}`,
        `spi-static full build (YAML → files): ${fullBuild.seconds} s wall, ${fullBuild.cpuSeconds} s CPU`,
        `spi-static render only (in memory):    ${renderOnly.seconds} s wall, ${renderOnly.cpuSeconds} s CPU ` +
          `for ${renderOnly.documents} documents`,
        `python-hybridspi marshall (in memory): ${theirs.seconds} s wall (best ${theirs.bestSeconds} s), ` +
          `${theirs.cpuSeconds} s CPU, ${theirs.documentsPerSecond} documents/s, Python ${theirs.python}`,
        `spi-static is faster by: full build ${result.timesFaster.fullBuildWall}× wall, ` +
          `${result.timesFaster.fullBuildCpu}× CPU; render only ${result.timesFaster.renderOnlyWall}× wall, ` +
          `${result.timesFaster.renderOnlyCpu}× CPU`,
      ].join("\n"),
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

interface Usage {
  seconds: number;
  cpuSeconds: number;
}

/** The CLI with `args` in its own process: its wall and CPU time (all its threads). */
async function measure(args: string[]): Promise<Usage> {
  const useTime = existsSync(timeBinary);
  const usageFile = join(root, "usage.json");
  const started = performance.now();
  const { code, stdout, stderr } = useTime
    ? await runProcess(timeBinary, ["-f", "cpu %U %S", process.execPath, cli, ...args])
    : await runProcess(process.execPath, ["--import", usageReporter, cli, ...args], {
        SPI_BENCH_USAGE_FILE: usageFile,
      });
  const seconds = round2((performance.now() - started) / 1000);
  if (code !== 0) throw new Error(`build failed (exit ${code}):\n${stdout}\n${stderr}`);
  const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  const cpuSeconds = useTime
    ? Number(cpu?.[1]) + Number(cpu?.[2])
    : (JSON.parse(await readFile(usageFile, "utf8")) as { cpuSeconds: number }).cpuSeconds;
  return { seconds, cpuSeconds: round2(cpuSeconds) };
}

interface HybridSpiResult {
  documents: number;
  seconds: number;
  bestSeconds: number;
  cpuSeconds: number;
  documentsPerSecond: number;
  python: string;
}

async function runPython(site: string): Promise<HybridSpiResult> {
  const args = [pythonScript, "--site", site, "--rounds", String(rounds), "--json"];
  const { code, stdout, stderr } = await runProcess(python, [
    ...args,
    ...(library ? ["--library", library] : []),
  ]);
  if (code !== 0) throw new Error(`${pythonScript} failed (exit ${code}):\n${stderr}`);
  return JSON.parse(stdout) as HybridSpiResult;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
