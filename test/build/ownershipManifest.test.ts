import { describe, expect, it } from "vitest";
import { isSitePath } from "../../src/build/ownershipManifest.js";

describe("isSitePath", () => {
  it("accepts the paths a build writes", () => {
    for (const path of [
      "radiodns/spi/3.1/SI.xml",
      "_keyed/radiodns/spi/3.1/SI.xml",
      "radiodns/spi/3.1/id/rdns.example/news/20261123_PI.xml",
      ".assetsignore",
      "_spi-staticx/a",
      "a/..b",
      "a b/c",
    ]) {
      expect(isSitePath(path), path).toBe(true);
    }
  });

  it("refuses what leaves out/, is not normalized, or is the build's own folder", () => {
    for (const path of [
      "",
      ".",
      "..",
      "../x",
      "./x",
      "a/./b",
      "a/../b",
      "a//b",
      "/etc/passwd",
      "a/",
      "a\\b",
      "a/\u0007b",
      "_spi-static",
      "_spi-static/state.json",
    ]) {
      expect(isSitePath(path), JSON.stringify(path)).toBe(false);
    }
  });
});
