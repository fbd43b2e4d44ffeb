import { describe, expect, it } from "vitest";
import { HEAP_GROWTH_PERCENT, heapGrowth } from "../../src/cli/heapGrowth.js";

// Whether the bin restarts node for a command; test/cli/main.test.ts checks the real process.
describe("the heap setting a command runs with", () => {
  it("restarts node with the default limit for build and validate", () => {
    for (const command of ["build", "validate"]) {
      expect(heapGrowth({}, [], [command, "--data", "x"], true)).toEqual({
        startWith: `--heap-growing-percent=${HEAP_GROWTH_PERCENT}`,
        description: "",
        warning: undefined,
      });
    }
  });

  it("takes the percent of SPI_STATIC_HEAP_GROWTH, and 0 as V8's own rule without a restart", () => {
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "20" }, [], ["build"], true).startWith).toBe(
      "--heap-growing-percent=20",
    );
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "0" }, [], ["build"], true)).toMatchObject({
      startWith: undefined,
      description: "left to V8 (SPI_STATIC_HEAP_GROWTH=0)",
    });
  });

  it("keeps a flag node was started with, whatever its spelling, and does not restart", () => {
    for (const flag of ["--heap-growing-percent=30", "--heap_growing_percent=30"]) {
      expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "20" }, [flag], ["build"], true)).toMatchObject({
        startWith: undefined,
        description: `limited by ${flag}, given to node at start-up`,
      });
    }
    expect(heapGrowth({}, ["--heap-growing-percent-x=1"], ["build"], true).startWith).toBeDefined();
  });

  it("runs the other commands without a restart, with V8's own rule", () => {
    for (const args of [[], ["--version"], ["serve"], ["verify", "http://127.0.0.1:8080"]]) {
      expect(heapGrowth({}, [], args, true)).toMatchObject({
        startWith: undefined,
        description: "left to V8 (only build and validate limit it)",
      });
    }
  });

  it("leaves it to V8 where node cannot restart itself (no process.execve) rather than run a second process", () => {
    expect(heapGrowth({}, [], ["build"], false)).toEqual({
      startWith: undefined,
      description:
        "left to V8 (limiting it needs node started with --heap-growing-percent=50; this node cannot restart itself with it: process.execve needs Node 22.15 or later, not on Windows)",
      warning: undefined,
    });
    expect(heapGrowth({}, ["--heap-growing-percent=50"], ["build"], false).description).toBe(
      "limited by --heap-growing-percent=50, given to node at start-up",
    );
  });

  it("warns of a setting that is not a percent and uses the default", () => {
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "half" }, [], ["build"], true)).toEqual({
      startWith: `--heap-growing-percent=${HEAP_GROWTH_PERCENT}`,
      description: "",
      warning: `spi-static: SPI_STATIC_HEAP_GROWTH=half is not a percent (0 to 9999); using ${HEAP_GROWTH_PERCENT}`,
    });
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "" }, [], ["build"], true).warning).toBeUndefined();
  });
});
