import { debug } from "../debug/debugLog.js";

/** The build's lifecycle (buildSite.ts), in order; render runs inside publish, one at a time. */
export const BUILD_STEPS = [
  "read state",
  "up to date?",
  "load",
  "plan",
  "check",
  "reuse check",
  "render",
  "publish",
  "commit",
] as const;
export type BuildStep = (typeof BUILD_STEPS)[number];

/**
 * Times each step of a build; `SPI_STATIC_DEBUG=timing` prints one line per step as it ends:
 * `timing: load: 812 ms (CPU 640 ms)`, CPU of the whole process (the parse workers' too). A
 * step that runs inside another (render in publish) is counted in its own line only.
 */
export class BuildSteps {
  /** Wall and CPU ms of the steps run inside another so far. */
  private nested: [number, number] = [0, 0];

  async run<T>(step: BuildStep, work: () => T | Promise<T>): Promise<T> {
    const started = now();
    const [nestedMs, nestedCpuMs] = this.nested;
    try {
      return await work();
    } finally {
      const [ms, cpuMs] = since(started);
      report(step, ms - (this.nested[0] - nestedMs), cpuMs - (this.nested[1] - nestedCpuMs));
    }
  }

  /** The items of `items`, the time taken to make them counted as `step`. */
  *during<T>(step: BuildStep, items: Iterable<T>): Generator<T> {
    const [nestedMs, nestedCpuMs] = this.nested;
    const iterator = items[Symbol.iterator]();
    try {
      for (;;) {
        const started = now();
        const next = iterator.next();
        const [ms, cpuMs] = since(started);
        this.nested = [this.nested[0] + ms, this.nested[1] + cpuMs];
        if (next.done) return;
        yield next.value;
      }
    } finally {
      report(step, this.nested[0] - nestedMs, this.nested[1] - nestedCpuMs);
    }
  }
}

function now(): [number, NodeJS.CpuUsage] {
  return [performance.now(), process.cpuUsage()];
}

/** Wall and CPU ms since `started`. */
function since([wall, cpu]: [number, NodeJS.CpuUsage]): [number, number] {
  const { user, system } = process.cpuUsage(cpu);
  return [performance.now() - wall, (user + system) / 1000];
}

function report(step: BuildStep, ms: number, cpuMs: number): void {
  debug("timing", () => `${step}: ${Math.round(ms)} ms (CPU ${Math.round(cpuMs)} ms)`);
}
