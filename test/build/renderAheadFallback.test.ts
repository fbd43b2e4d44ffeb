import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { readPublishedFiles, withoutStamps } from "../outputFolder.js";

/**
 * Rendering ahead is only a shortcut: a document it could not stage on disk, or whose file went
 * away before the publish stage took it, is rendered when asked, with the same bytes.
 */
const failing = vi.hoisted(() => ({ put: false, take: false }));
vi.mock("../../src/build/stagingFolder.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/build/stagingFolder.js")>();
  const ahead = (name: string) => name.startsWith("ahead-");
  return {
    ...real,
    openStagingFolder(outDir: string) {
      const folder = real.openStagingFolder(outDir);
      return {
        ...folder,
        write: (name: string, bytes: Uint8Array) =>
          !(failing.put && ahead(name)) && folder.write(name, bytes),
        pathOf: (name: string) =>
          failing.take && ahead(name) ? `${folder.pathOf(name)}.gone` : folder.pathOf(name),
      };
    },
  };
});

const root = await mkdtemp(join(tmpdir(), "spi-render-ahead-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const START = Date.parse("2026-11-23T08:00:00Z");
const DAY_MS = 86_400_000;

describe("rendering ahead", () => {
  it("renders each service's new day from its check's layout on the next night, and publishes those", async () => {
    const dir = join(root, "kept");
    const dataDir = join(dir, "data");
    await cp(new URL("../../data", import.meta.url).pathname, dataDir, { recursive: true });
    const outDir = join(dir, "out");
    await buildSite({ dataDir, outDir, now: START });
    vi.stubEnv("SPI_STATIC_DEBUG", "render,plan");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    await buildSite({ dataDir, outDir, now: START + DAY_MS });
    const said = stderr.mock.calls.map(([text]) => String(text)).join("");
    stderr.mockRestore();
    vi.unstubAllEnvs();
    // The example's five services, one new day each: all five taken as rendered ahead, and the
    // render stage renders no PI document.
    expect(said).toMatch(
      /\b5 PI documents taken as rendered ahead during the check \(5 rendered ahead\)/,
    );
    expect(said).toMatch(/debug render: 0 of \d+ PI documents rendered/);
    expect(said).toMatch(/debug plan: \d+ reused; rendered: 5: no earlier build recorded it\n/);
  });
});

describe("rendering ahead, when its documents cannot be kept", () => {
  it.each([
    ["not kept", { put: true, take: false }],
    ["gone before they are taken", { put: false, take: true }],
  ])(
    "renders them when asked (%s): the same bytes as a build that renders all",
    async (name, how) => {
      const dir = join(root, name.replaceAll(" ", "-"));
      const dataDir = join(dir, "data");
      await cp(new URL("../../data", import.meta.url).pathname, dataDir, { recursive: true });
      const outDir = join(dir, "out");
      await buildSite({ dataDir, outDir, now: START });
      Object.assign(failing, how);
      vi.stubEnv("SPI_STATIC_DEBUG", "render");
      const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      const night = await buildSite({ dataDir, outDir, now: START + DAY_MS });
      const said = stderr.mock.calls.map(([text]) => String(text)).join("");
      stderr.mockRestore();
      vi.unstubAllEnvs();
      Object.assign(failing, { put: false, take: false });
      expect(said).toMatch(/\b0 PI documents taken as rendered ahead during the check/);
      expect(night.written).toBeGreaterThan(0);
      const forcedOut = join(dir, "forced");
      await buildSite({ dataDir, outDir: forcedOut, now: START + DAY_MS, force: true });
      expect(withoutStamps(await readPublishedFiles(outDir))).toEqual(
        withoutStamps(await readPublishedFiles(forcedOut)),
      );
    },
  );
});
