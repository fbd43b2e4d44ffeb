import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { BUILD_STEPS } from "../../src/build/buildSteps.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-steps-"));
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
const NOW = Date.parse("2026-11-23T08:00:00Z");
const DAY_MS = 86_400_000;

/** The steps SPI_STATIC_DEBUG=timing named during `run`, in order, each with its times. */
async function timedSteps(run: () => Promise<unknown>): Promise<string[]> {
  vi.stubEnv("SPI_STATIC_DEBUG", "timing");
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  await run();
  const said = stderr.mock.calls.map(([text]) => String(text)).join("");
  stderr.mockRestore();
  vi.unstubAllEnvs();
  return [...said.matchAll(/^spi-static debug timing: (.+): \d+ ms \(CPU \d+ ms\)$/gm)].map(
    ([, step]) => step as string,
  );
}

describe("SPI_STATIC_DEBUG=timing", () => {
  it("names and times every step of a build, in order, and the two an up-to-date build runs", async () => {
    const dataDir = join(root, "data");
    const outDir = join(root, "out");
    await cp("data", dataDir, { recursive: true });
    // Render runs inside publish, one document at a time: its line comes before publish's.
    const inOrder = [
      "read state",
      "up to date?",
      "load",
      "plan",
      "check",
      "reuse check",
      "render",
      "publish",
      "commit",
    ];
    expect(BUILD_STEPS).toEqual(inOrder);
    expect(await timedSteps(() => buildSite({ dataDir, outDir, now: NOW }))).toEqual(inOrder);
    const night = () => buildSite({ dataDir, outDir, now: NOW + DAY_MS });
    expect(await timedSteps(night)).toEqual(inOrder);
    expect(await timedSteps(night)).toEqual(["read state", "up to date?"]);
  });
});
