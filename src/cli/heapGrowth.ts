/**
 * How far V8 lets a heap grow past what its last full collection kept, in percent, for every
 * thread of the process (the parse workers too). Left to itself V8 grows it up to 4× while
 * collecting is cheap, and a build's garbage (each service laid out, each file parsed) lives
 * long enough to reach the old generation: a 100-service full build peaks at ~190 MB with the
 * limit and ~250 MB without (BENCHMARKS.md, "Issue 23, heap and memory").
 * `SPI_STATIC_HEAP_GROWTH=<percent>` chooses another; 0 leaves it to V8.
 */
export const HEAP_GROWTH_PERCENT = 50;

/**
 * The commands that load a whole data folder, whose peak memory the limit is for. The others
 * (`--version`, `serve`, `verify`, ...) keep the process node started.
 */
export const LIMITED_COMMANDS: readonly string[] = ["build", "validate"];

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/** What the process runs with, and whether node must start again to get it. */
export interface HeapGrowth {
  /**
   * `--heap-growing-percent=N` for node to start again with: V8 reads its flags at start-up
   * (node refuses this one in NODE_OPTIONS and in a worker's execArgv, and setting it later is
   * documented as unpredictable), so the bin replaces its process with node started with it.
   */
  startWith: string | undefined;
  /** What the memory debug channel says of the setting. */
  description: string;
  /** SPI_STATIC_HEAP_GROWTH was not a percent (the default is used). */
  warning: string | undefined;
}

/**
 * The heap setting for `spi-static <args>` in a node started with `execArgv`: a flag node was
 * given wins (the one this bin gives when it starts node again, too); else the percent of
 * SPI_STATIC_HEAP_GROWTH or the default, for the commands that load a data folder, when this
 * node `canRestart` (process.execve: Node 22.15 or later, not on Windows). Without it the limit
 * would need a second process, which a SIGKILL of the first would leave running (publishing
 * after its caller saw it killed), so V8 keeps its own rule there.
 */
export function heapGrowth(
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  args: readonly string[],
  canRestart: boolean,
): HeapGrowth {
  const given = env.SPI_STATIC_HEAP_GROWTH;
  const percent = given !== undefined && /^\d{1,4}$/.test(given) ? Number(given) : undefined;
  const warning =
    given !== undefined && given !== "" && percent === undefined
      ? `spi-static: SPI_STATIC_HEAP_GROWTH=${given} is not a percent (0 to 9999); using ${HEAP_GROWTH_PERCENT}`
      : undefined;
  const keep = (description: string) => ({ startWith: undefined, description, warning });
  const byNode = execArgv.find((argument) => FLAG.test(argument));
  if (byNode) return keep(`limited by ${byNode}, given to node at start-up`);
  const setting = percent ?? HEAP_GROWTH_PERCENT;
  if (setting === 0) return keep("left to V8 (SPI_STATIC_HEAP_GROWTH=0)");
  if (!LIMITED_COMMANDS.includes(args[0] ?? "")) {
    return keep(`left to V8 (only ${LIMITED_COMMANDS.join(" and ")} limit it)`);
  }
  if (!canRestart) {
    return keep(
      `left to V8 (limiting it needs node started with --heap-growing-percent=${setting}; this node cannot restart itself with it: process.execve needs Node 22.15 or later, not on Windows)`,
    );
  }
  return { startWith: `--heap-growing-percent=${setting}`, description: "", warning };
}
