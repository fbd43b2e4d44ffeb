import { writeFileSync } from "node:fs";

/**
 * Preloaded into a build (`node --import`) where GNU time is missing: on exit, writes the
 * process's peak resident set size in kilobytes to $SPI_BENCH_RSS_FILE.
 */
const target = process.env.SPI_BENCH_RSS_FILE;
if (target) process.on("exit", () => writeFileSync(target, String(process.resourceUsage().maxRSS)));
