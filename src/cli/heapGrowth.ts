import { setFlagsFromString } from "node:v8";
import { debug } from "../debug/debugLog.js";

/**
 * How far V8 lets a heap grow past what its last full collection kept, in percent, for every
 * thread of the process (the parse workers too). Left to itself V8 grows it up to 4× while
 * collecting is cheap, and a build's garbage (each service laid out, each file parsed) lives
 * long enough to reach the old generation: a 1000-service nightly build peaked at 340–590 MB
 * for a 110 MB live heap. At 50 % it peaks at 325–340 MB, and a 100-service full build at 240
 * instead of 280 MB, for about 10 % more CPU time (BENCHMARKS.md, "Speed, round five").
 * `SPI_STATIC_HEAP_GROWTH=<percent>` chooses another; 0 leaves it to V8.
 */
export const HEAP_GROWTH_PERCENT = 50;

/**
 * Sets the limit for this process, unless node was started with one. V8 reads it at each
 * collection, so setting it after start-up takes effect (node refuses it in NODE_OPTIONS).
 * Returns a warning when SPI_STATIC_HEAP_GROWTH is not a percent (the default is used).
 */
export function limitHeapGrowth(
  env: NodeJS.ProcessEnv,
  nodeArguments: string[],
): string | undefined {
  const given = env.SPI_STATIC_HEAP_GROWTH;
  const percent = given !== undefined && /^\d{1,4}$/.test(given) ? Number(given) : undefined;
  const warning =
    given !== undefined && given !== "" && percent === undefined
      ? `spi-static: SPI_STATIC_HEAP_GROWTH=${given} is not a percent (0 to 9999); using ${HEAP_GROWTH_PERCENT}`
      : undefined;
  const byNode = nodeArguments.some((argument) => /^--heap[-_]growing[-_]percent/.test(argument));
  const setting = byNode ? undefined : (percent ?? HEAP_GROWTH_PERCENT);
  if (setting !== undefined) setFlagsFromString(`--heap-growing-percent=${setting}`);
  process.once("exit", () =>
    debug("memory", () => {
      const peak = Math.round(process.resourceUsage().maxRSS / 1024);
      const growth =
        setting === undefined
          ? "as node's --heap-growing-percent set it"
          : setting === 0
            ? "left to V8 (SPI_STATIC_HEAP_GROWTH=0)"
            : `limited to ${setting} %`;
      return `peak RSS ${peak} MB; heap growth ${growth} (src/cli/heapGrowth.ts)`;
    }),
  );
  return warning;
}
