import { describe, expect, it } from "vitest";
import { heapGrowthSetting } from "../../src/cli/heapGrowth.js";

// What SPI_STATIC_DEBUG=memory says of the heap; test/cli/main.test.ts checks the real process.
describe("the heap growth setting the memory channel reports", () => {
  it("is V8's own rule unless node was started with --heap-growing-percent, in either spelling", () => {
    expect(heapGrowthSetting([])).toBe("V8's own rule");
    expect(heapGrowthSetting(["--enable-source-maps", "--heap-growing-percent-x=1"])).toBe(
      "V8's own rule",
    );
    for (const flag of ["--heap-growing-percent=30", "--heap_growing_percent=30"]) {
      expect(heapGrowthSetting(["--enable-source-maps", flag])).toBe(
        `limited by ${flag}, given to node at start-up`,
      );
    }
  });
});
