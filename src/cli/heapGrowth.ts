import { debug } from "../debug/debugLog.js";

const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/**
 * How the heap grows past what its last full collection kept: V8's own rule, unless node was
 * started with `--heap-growing-percent` (V8 reads its flags at start-up only; node refuses this
 * one in NODE_OPTIONS). The CLI used to set 50 % after start-up, which Node documents as
 * unpredictable. Given at start-up instead (node restarting itself with process.execve), it
 * saved no memory on Node 24 and made builds slower, and Node 20 has no way to do it in one
 * process, so the CLI sets nothing (docs/benchmarks-history.md, "Issue 23, heap and memory").
 * The ways Node 20 does support (a child with `--max-old-space-size` in NODE_OPTIONS, the build
 * in a worker thread with `resourceLimits`) were measured in "Issue 23, memory round 2": each
 * a hard cap on the heap, and neither reaches the targets; the decision is the
 * maintainers'. The parse workers, which only ever hold one data file, have such a limit
 * (PARSE_WORKER_OLD_GENERATION_MB).
 */
export function heapGrowthSetting(execArgv: readonly string[]): string {
  const given = execArgv.find((argument) => FLAG.test(argument));
  return given ? `limited by ${given}, given to node at start-up` : "V8's own rule";
}

/** `SPI_STATIC_DEBUG=memory`: the peak RSS and the heap's growth setting, when the process ends. */
export function reportMemoryAtExit(execArgv: readonly string[]): void {
  process.once("exit", () =>
    debug("memory", () => {
      const peak = Math.round(process.resourceUsage().maxRSS / 1024);
      return `peak RSS ${peak} MB; heap growth: ${heapGrowthSetting(execArgv)} (src/cli/heapGrowth.ts)`;
    }),
  );
}
