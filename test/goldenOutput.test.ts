import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./cli/runCli.js";
import { listFiles } from "./outputFolder.js";

/**
 * The example data built at fixed clocks by the compiled CLI (what users run: the worker holds
 * tsc's text of the edge rules, not the test runner's), compared byte for byte with
 * test/golden/<case>/. A refactor must leave these files as they are; a change that means to
 * alter the output regenerates them with `npm run golden:update` and says why in its commit.
 */
const CASES = [
  { name: "ordinary-week", now: "2026-11-23T08:00:00Z" },
  // Europe/Zurich goes back from 03:00 CEST to 02:00 CET on 2026-10-25: today is that day.
  { name: "dst-end-week", now: "2026-10-25T08:00:00Z" },
] as const;

const DATA_DIR = new URL("../data", import.meta.url).pathname;
const GOLDEN_DIR = new URL("golden", import.meta.url).pathname;
/** Set by `npm run golden:update`: write the build's output as the new golden files. */
const UPDATE = process.env.SPI_STATIC_GOLDEN === "update";
/** The build's bookkeeping (manifest, stamp): not output a client ever sees. */
const BOOKKEEPING = "_spi-static/";

async function buildCase(now: string): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), "spi-golden-"));
  const args = ["build", "--data", DATA_DIR, "--out", outDir, "--now", now, "--quiet"];
  // SPI_API_KEYS would replace the data folder's demo key.
  const { code, stderr } = await runCli(args, process.cwd(), { SPI_API_KEYS: "" });
  expect(stderr).toBe("");
  expect(code).toBe(0);
  await rm(join(outDir, BOOKKEEPING), { recursive: true, force: true });
  return outDir;
}

describe.each(CASES)("the example data built at $now ($name)", ({ name, now }) => {
  const goldenDir = join(GOLDEN_DIR, name);

  it.runIf(UPDATE)("is written as the new golden output", async () => {
    const outDir = await buildCase(now);
    await rm(goldenDir, { recursive: true, force: true });
    await cp(outDir, goldenDir, { recursive: true });
    expect(await listFiles(goldenDir)).toEqual(await listFiles(outDir));
  });

  it.skipIf(UPDATE)("matches test/golden byte for byte (npm run golden:update)", async () => {
    const outDir = await buildCase(now);
    const built = await listFiles(outDir);
    expect(built).toEqual(await listFiles(goldenDir));
    const differing: string[] = [];
    for (const file of built) {
      const [actual, expected] = await Promise.all([
        readFile(join(outDir, file)),
        readFile(join(goldenDir, file)),
      ]);
      if (!actual.equals(expected)) differing.push(file);
    }
    expect(differing).toEqual([]);
  });
});
