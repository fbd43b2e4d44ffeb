/**
 * How far V8 lets a heap grow past what its last full collection kept, in percent, for every
 * thread of the process (the parse workers too). Left to itself V8 grows it up to 4× while
 * collecting is cheap, and a build's garbage (each service laid out, each file parsed) lives
 * long enough to reach the old generation: a 100-service full build peaks at ~250 MB instead of
 * ~190 MB, a 1000-service one at ~420 instead of ~340 MB (BENCHMARKS.md, "Issue 23, heap and
 * memory"). `SPI_STATIC_HEAP_GROWTH=<percent>` chooses another; 0 leaves it to V8.
 */
export const HEAP_GROWTH_PERCENT = 50;

/**
 * The commands that load a whole data folder, whose peak memory the limit is for. The others
 * (`--version`, `serve`, `verify`, ...) start without it, and without a second process.
 */
export const LIMITED_COMMANDS: readonly string[] = ["build", "validate"];

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/** What the process runs with, and whether it must start node again to get it. */
export interface HeapGrowth {
  /**
   * `--heap-growing-percent=N` for a node started again with it: V8 flags are read at start-up
   * (node refuses this one in NODE_OPTIONS and in a worker's execArgv, and setting it later is
   * documented as unpredictable), so the bin starts node once more with it (startAgain.ts).
   */
  startWith: string | undefined;
  /** What the memory debug channel says of the setting. */
  description: string;
  /** SPI_STATIC_HEAP_GROWTH was not a percent (the default is used). */
  warning: string | undefined;
}

/**
 * The heap setting for `spi-static <args>` in a node started with `execArgv`: a flag node was
 * given wins (including the one this bin gives when it starts node again); else the percent of
 * SPI_STATIC_HEAP_GROWTH or the default, for the commands that load a data folder.
 */
export function heapGrowth(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  args: readonly string[],
): HeapGrowth {
  const given = env.SPI_STATIC_HEAP_GROWTH;
  const percent = given !== undefined && /^\d{1,4}$/.test(given) ? Number(given) : undefined;
  const warning =
    given !== undefined && given !== "" && percent === undefined
      ? `spi-static: SPI_STATIC_HEAP_GROWTH=${given} is not a percent (0 to 9999); using ${HEAP_GROWTH_PERCENT}`
      : undefined;
  const byNode = execArgv.find((argument) => FLAG.test(argument));
  if (byNode) {
    return {
      startWith: undefined,
      description: `limited by ${byNode}, given to node at start-up`,
      warning,
    };
  }
  const setting = percent ?? HEAP_GROWTH_PERCENT;
  if (setting === 0) {
    return { startWith: undefined, description: "left to V8 (SPI_STATIC_HEAP_GROWTH=0)", warning };
  }
  if (!LIMITED_COMMANDS.includes(args[0] ?? "")) {
    return {
      startWith: undefined,
      description: `left to V8 (only ${LIMITED_COMMANDS.join(" and ")} limit it)`,
      warning,
    };
  }
  return { startWith: `--heap-growing-percent=${setting}`, description: "", warning };
}
