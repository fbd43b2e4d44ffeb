import { describe, expect, it } from "vitest";
import { HEAP_GROWTH_PERCENT, heapGrowth } from "../../src/cli/heapGrowth.js";

// Which node the bin runs a command in; test/cli/main.test.ts checks the real processes.
describe("the heap setting a command runs with", () => {
  it("starts node again with the default limit for build and validate", () => {
    for (const command of ["build", "validate"]) {
      expect(heapGrowth({}, [], [command, "--data", "x"])).toEqual({
        startWith: `--heap-growing-percent=${HEAP_GROWTH_PERCENT}`,
        description: "",
        warning: undefined,
      });
    }
  });

  it("takes the percent of SPI_STATIC_HEAP_GROWTH, and 0 as V8's own rule in this process", () => {
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "20" }, [], ["build"]).startWith).toBe(
      "--heap-growing-percent=20",
    );
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "0" }, [], ["build"])).toMatchObject({
      startWith: undefined,
      description: "left to V8 (SPI_STATIC_HEAP_GROWTH=0)",
    });
  });

  it("keeps a flag node was started with, whatever its spelling, and starts nothing again", () => {
    for (const flag of ["--heap-growing-percent=30", "--heap_growing_percent=30"]) {
      expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "20" }, [flag], ["build"])).toMatchObject({
        startWith: undefined,
        description: `limited by ${flag}, given to node at start-up`,
      });
    }
    expect(heapGrowth({}, ["--heap-growing-percent-x=1"], ["build"]).startWith).toBeDefined();
  });

  it("runs the other commands in the first process, with V8's own rule", () => {
    for (const args of [[], ["--version"], ["serve"], ["verify", "http://127.0.0.1:8080"]]) {
      expect(heapGrowth({}, [], args)).toMatchObject({
        startWith: undefined,
        description: "left to V8 (only build and validate limit it)",
      });
    }
  });

  it("warns of a setting that is not a percent and uses the default", () => {
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "half" }, [], ["build"])).toEqual({
      startWith: `--heap-growing-percent=${HEAP_GROWTH_PERCENT}`,
      description: "",
      warning: `spi-static: SPI_STATIC_HEAP_GROWTH=half is not a percent (0 to 9999); using ${HEAP_GROWTH_PERCENT}`,
    });
    expect(heapGrowth({ SPI_STATIC_HEAP_GROWTH: "" }, [], ["build"]).warning).toBeUndefined();
  });
});
