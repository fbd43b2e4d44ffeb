import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { INPUT_CACHE_DIR, openInputCacheFolder } from "../../src/build/inputCacheFolder.js";
import { openStagingFolder } from "../../src/build/stagingFolder.js";
import { readTree } from "../outputFolder.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-input-cache-"));
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});
const NOW = Date.parse("2026-11-23T08:00:00Z");
let folders = 0;

async function fresh(): Promise<{ dataDir: string; outDir: string }> {
  const dir = join(root, String(folders++));
  await cp("data", join(dir, "data"), { recursive: true });
  return { dataDir: join(dir, "data"), outDir: join(dir, "out") };
}

/** What the load stage said on the debug channel during `run`. */
async function loadDebug(run: () => Promise<unknown>): Promise<string> {
  vi.stubEnv("SPI_STATIC_DEBUG", "load");
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  await run();
  const said = stderr.mock.calls.map(([text]) => String(text)).join("");
  stderr.mockRestore();
  return said;
}

describe("the input cache in out/", () => {
  it("lets the next build take every unchanged data file from it, and keeps one entry each", async () => {
    const { dataDir, outDir } = await fresh();
    const first = await loadDebug(() => buildSite({ dataDir, outDir, now: NOW }));
    const [, files = "0"] = /(\d+) data files: 0 from the input cache/.exec(first) ?? [];
    expect(Number(files)).toBeGreaterThan(5);
    expect(await readdir(join(outDir, INPUT_CACHE_DIR))).toHaveLength(Number(files));

    const tree = await readTree(outDir);
    const next = await loadDebug(() => buildSite({ dataDir, outDir, now: NOW + 86_400_000 }));
    expect(next).toContain(`${files} data files: ${files} from the input cache, 0 parsed`);
    // --force trusts nothing kept: every file is parsed again.
    const forced = await loadDebug(() =>
      buildSite({ dataDir, outDir, now: NOW + 86_400_000, force: true }),
    );
    expect(forced).toContain(`${files} data files: 0 from the input cache, ${files} parsed`);

    // An edited schedule is parsed again; its old entry goes, the new one is kept.
    const schedule = join(dataDir, "schedules/lounge.yaml");
    await writeFile(schedule, `${await readFile(schedule, "utf8")}\n# edited\n`);
    const edited = await loadDebug(() => buildSite({ dataDir, outDir, now: NOW }));
    expect(edited).toContain(`${Number(files) - 1} from the input cache, 1 parsed`);
    expect(edited).toContain("1 removed");
    expect(await readdir(join(outDir, INPUT_CACHE_DIR))).toHaveLength(Number(files));
    // Nothing the cache holds is served: the documents are those of a build without it.
    expect((await readTree(outDir)).size).toBe(tree.size);
  });

  it("is never written through a link in the bookkeeping folder", async () => {
    const { dataDir, outDir } = await fresh();
    const elsewhere = join(root, "elsewhere");
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await symlink(elsewhere, join(outDir, INPUT_CACHE_DIR));
    await expect(buildSite({ dataDir, outDir, now: NOW })).rejects.toThrow(/link/);
    expect(await readdir(elsewhere)).toEqual([]);
  });

  it("keeps a build's new entries apart until it publishes, and drops them if it does not", async () => {
    const { outDir } = await fresh();
    await mkdir(join(outDir, INPUT_CACHE_DIR), { recursive: true });
    const before = await readTree(outDir);
    const refusedStaging = openStagingFolder(outDir);
    const refused = openInputCacheFolder(outDir, "program", refusedStaging);
    const key = refused.keyOf("a file's digest");
    refused.write(key, Uint8Array.from([1, 2, 3]));
    expect(refused.has(key)).toBe(true);
    expect(Array.from(refused.read(key) ?? [])).toEqual([1, 2, 3]);
    refusedStaging.drop();
    expect(await readTree(outDir)).toEqual(before);

    const staging = openStagingFolder(outDir);
    const published = openInputCacheFolder(outDir, "program", staging);
    expect(published.has(key)).toBe(false);
    published.write(key, Uint8Array.from([4, 5]));
    published.commit();
    staging.drop();
    expect(await readdir(join(outDir, "_spi-static"))).toEqual(["inputs"]);
    expect(await readdir(join(outDir, INPUT_CACHE_DIR))).toEqual([`${key}.v8`]);
    const again = openInputCacheFolder(outDir, "program", openStagingFolder(outDir));
    expect(Array.from(again.read(key) ?? [])).toEqual([4, 5]);
  });

  it("is not left staged by a build killed on this machine: the next build removes it", async () => {
    const { dataDir, outDir } = await fresh();
    // No process has this pid (the kernel's limit is lower).
    const staged = join(
      outDir,
      "_spi-static",
      `inputs-staging-${hostname()}-99999999-0123456789ab`,
    );
    await mkdir(staged, { recursive: true });
    await writeFile(join(staged, `${"0".repeat(64)}.v8`), "half");
    await buildSite({ dataDir, outDir, now: NOW });
    expect(await readdir(join(outDir, "_spi-static"))).not.toContain(staged.split("/").at(-1));
  });

  it("never fails a build: an entry it cannot write is only missing next time", async () => {
    const { outDir } = await fresh();
    await mkdir(join(outDir, "_spi-static"), { recursive: true });
    // A file where the cache's folder should be: every write fails.
    await writeFile(join(outDir, INPUT_CACHE_DIR), "not a folder");
    const cache = openInputCacheFolder(outDir, "program", openStagingFolder(outDir));
    const key = cache.keyOf("a file's digest");
    cache.write(key, Uint8Array.from([1, 2, 3]));
    expect(() => cache.commit()).not.toThrow();
    expect(cache.read(key)).toBeUndefined();
    expect(cache.keyOf("another file's digest")).not.toBe(key);
    const another = openInputCacheFolder(outDir, "another program", openStagingFolder(outDir));
    expect(another.keyOf("a file's digest")).not.toBe(key);
  });
});
