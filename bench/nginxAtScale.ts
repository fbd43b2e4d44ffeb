import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parse, stringify } from "yaml";
import { edgeCases } from "./measureEdge.js";
import { measureNginx, type NginxFigure } from "./measureNginx.js";
import { runProcess } from "./runProcess.js";
import {
  SYNTHETIC_HOST,
  SYNTHETIC_KEY,
  syntheticServiceId,
  writeSyntheticDataset,
} from "./syntheticDataset.js";

/**
 * `npm run bench:nginx-scale [-- --services 100,10000 --rounds 3]`: whether nginx's cost per
 * request grows with the number of services (issue 38). Each size is built once; then each round
 * measures every size in turn (nginx's worker CPU per request, as `npm run bench` does), so a
 * busy minute on the machine hits every size alike. Reported: the median of the rounds per size
 * and case, and each round's figures.
 *
 * The dataset: the aggregator's services (bench/syntheticDataset.ts), each with one DAB bearer of
 * its own (that dataset's SIds run out at 3,840 services) and one programme a day, so that
 * 10,000 services build in minutes. What the rules do per request depends on the site's tables,
 * not on the document's size, and every size serves the same document.
 */

const ONE_PROGRAMME_A_DAY = stringify({
  shows: { day: { name: { short: "Day", medium: "All day", long: "All day long" } } },
  grid: [{ days: "mon-sun", slots: [{ start: "00:00", show: "day" }] }],
});

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const { values: options } = parseArgs({
  options: {
    services: { type: "string", default: "100,10000" },
    rounds: { type: "string", default: "3" },
    /** Seconds of wrk per case and size in each round. */
    seconds: { type: "string", default: "5" },
    now: { type: "string", default: "2026-11-23T04:00:00Z" },
    cli: { type: "string", default: join(repoRoot, "dist", "cli", "main.js") },
  },
});
const sizes = options.services.split(",").map(Number);
const rounds = Number(options.rounds);
if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !(rounds >= 1)) {
  throw new Error("--services takes positive integers separated by commas, --rounds one");
}
const date = options.now.slice(0, 10).replaceAll("-", "");
const cases = edgeCases(SYNTHETIC_HOST, syntheticServiceId(0), date, SYNTHETIC_KEY);

const root = await mkdtemp(join(tmpdir(), "spi-bench-nginx-scale-"));
const load = [loadavg()[0] ?? 0];
try {
  const outDirs = new Map<number, string>();
  for (const size of sizes) {
    const dataDir = join(root, `data-${size}`);
    const outDir = join(root, `out-${size}`);
    await writeServices(dataDir, size);
    const started = performance.now();
    const built = await runProcess(process.execPath, [
      ...[options.cli, "build", "--data", dataDir, "--out", outDir, "--now", options.now],
      ...["--asset-limit", "off", "--quiet"],
    ]);
    if (built.code !== 0) throw new Error(`build of ${size} services failed:\n${built.stderr}`);
    log(`${size} services built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await rm(dataDir, { recursive: true });
    outDirs.set(size, outDir);
  }
  const figures = new Map<number, NginxFigure[][]>(sizes.map((size) => [size, []]));
  for (let round = 0; round < rounds; round++) {
    for (const size of sizes) {
      const measured = await measureNginx(
        options.cli,
        outDirs.get(size) as string,
        options.now,
        cases,
        Number(options.seconds),
      );
      if (typeof measured === "string") throw new Error(measured);
      figures.get(size)?.push(measured);
      log(`round ${round + 1}, ${size} services: ${line(measured)}`);
    }
    load.push(loadavg()[0] ?? 0);
  }
  console.log(
    `\nnginx worker CPU per request (µs), median of ${rounds} round(s), ${cpus().length} cores, load average ${load.map((l) => l.toFixed(1)).join(" → ")}`,
  );
  console.log(`| services | ${cases.map((c) => c.name).join(" | ")} |`);
  console.log(`| ---: | ${cases.map(() => "---:").join(" | ")} |`);
  for (const size of sizes) {
    const perRound = figures.get(size) ?? [];
    const medians = cases.map((_, i) =>
      median(perRound.map((round) => round[i]?.cpuMicrosecondsPerRequest ?? Number.NaN)),
    );
    console.log(`| ${size.toLocaleString("en")} | ${medians.join(" | ")} |`);
  }
} finally {
  await rm(root, { recursive: true, force: true });
}

async function writeServices(dataDir: string, services: number) {
  await writeSyntheticDataset(dataDir, 1, "aggregator");
  await rm(join(dataDir, "episodes"), { recursive: true });
  const first = join(dataDir, "services", `${syntheticServiceId(0)}.yaml`);
  const template = parse(await readFile(first, "utf8")) as Record<string, unknown>;
  for (let i = 0; i < services; i++) {
    const id = syntheticServiceId(i);
    const eid = (0x4fe1 + Math.floor(i / 0x1000)).toString(16);
    const sid = `4${(i % 0x1000).toString(16).padStart(3, "0")}`;
    const bearers = { dab: [{ id: `dab:4e1.${eid}.${sid}.0`, mimeValue: "audio/aacp" }] };
    await writeFile(
      join(dataDir, "services", `${id}.yaml`),
      stringify({ ...template, id, bearers }),
    );
    await writeFile(join(dataDir, "schedules", `${id}.yaml`), ONE_PROGRAMME_A_DAY);
  }
}

function line(measured: NginxFigure[]): string {
  return measured
    .map((f) => `${f.name} ${f.cpuMicrosecondsPerRequest} µs (${f.requestsPerSecond}/s)`)
    .join(", ");
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : Math.round(((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2);
}

function log(message: string) {
  process.stderr.write(`${message}\n`);
}
