import { writeFileSync } from "node:fs";

/**
 * Preloaded into a build (`node --import`) where GNU time is missing: on exit, writes the
 * process's peak resident set size (kB) and CPU time (s) as JSON to $SPI_BENCH_USAGE_FILE.
 */
const target = process.env.SPI_BENCH_USAGE_FILE;
if (target) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    writeFileSync(target, JSON.stringify({ maxRssKb: usage.maxRSS, cpuSeconds }));
  });
}
