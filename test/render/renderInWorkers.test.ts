import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BuildOptions, BuildSummary } from "../../src/buildSite.js";
import { readPublishedFiles } from "../outputFolder.js";

const dataDir = new URL("../../data", import.meta.url).pathname;
const NOW = Date.parse("2026-11-23T04:00:00Z");
const NEXT_NIGHT = NOW + 86_400_000;

// Workers start only from the compiled worker script: the test runs the compiled build.
const compiled = (): Promise<{ buildSite(options: BuildOptions): Promise<BuildSummary> }> =>
  import(new URL("../../dist/buildSite.js", import.meta.url).href);

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("rendering in worker threads", () => {
  it("publishes the same bytes as the main thread, on a full build and on the next night", async () => {
    const { buildSite } = await compiled();
    vi.stubEnv("SPI_STATIC_DEBUG", "render");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const said = () => stderr.mock.calls.map(([text]) => String(text)).join("");
    const alone = await mkdtemp(join(tmpdir(), "spi-jobs1-"));
    const spread = await mkdtemp(join(tmpdir(), "spi-jobs3-"));

    await buildSite({ dataDir, outDir: alone, now: NOW, jobs: 1 });
    expect(said()).toMatch(/PI documents rendered on the main thread: --jobs 1/);
    stderr.mockClear();
    const full = await buildSite({ dataDir, outDir: spread, now: NOW, jobs: 3 });
    expect(full.rendered).toBeGreaterThan(80);
    expect(said()).toMatch(
      /\b85 PI documents rendered in 3 worker threads.*, 0 on the main thread/,
    );
    const first = await readPublishedFiles(alone);
    expect([...first.keys()].length).toBeGreaterThan(85);
    expect(await readPublishedFiles(spread)).toEqual(first);

    // A nightly build renders one new day per service: too few to send a service to a worker,
    // and rendered ahead from the check's layout (render/renderAhead.ts).
    await buildSite({ dataDir, outDir: alone, now: NEXT_NIGHT, jobs: 1 });
    stderr.mockClear();
    await buildSite({ dataDir, outDir: spread, now: NEXT_NIGHT, jobs: 3 });
    expect(said()).toMatch(/\b0 PI documents rendered in 0 worker threads.*, 0 on the main thread/);
    expect(said()).toMatch(/\b5 PI documents taken as rendered ahead during the check/);
    const next = await readPublishedFiles(alone);
    expect(next).not.toEqual(first);
    expect(await readPublishedFiles(spread)).toEqual(next);
  });
});
