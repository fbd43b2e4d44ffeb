import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStagingFolder, removeStaleStaging } from "../../src/build/stagingFolder.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-staging-"));
afterAll(() => rm(root, { recursive: true, force: true }));
let folders = 0;
const freshOut = () => join(root, String(folders++), "out");

describe("a build's staging folder", () => {
  it("are made at the first write, and a refused first build's leave no out/ behind", async () => {
    const outDir = freshOut();
    const staging = openStagingFolder(outDir);
    await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
    expect(staging.write("0.xml", Buffer.from("<a/>"))).toBe(true);
    expect(await readdir(join(outDir, "_spi-static"))).toHaveLength(1);
    staging.drop(true);
    await expect(readdir(outDir)).rejects.toThrow(/ENOENT/);
  });

  it("say when a file cannot be staged, without failing", async () => {
    const outDir = freshOut();
    await mkdir(outDir, { recursive: true });
    // A file where the bookkeeping folder should be: every write fails.
    await writeFile(join(outDir, "_spi-static"), "not a folder");
    const staging = openStagingFolder(outDir);
    expect(staging.write("0.v8", Uint8Array.from([1]))).toBe(false);
    expect(() => staging.drop(true)).not.toThrow();
  });

  it("of a build killed on this machine are removed by the next, a running build's are not", async () => {
    const outDir = freshOut();
    // No process has this pid (the kernel's limit is lower); this process is running. Also
    // the two kinds of folder builds before issue 33 staged in.
    const dead = `staging-${hostname()}-99999999-0123456789ab`;
    const older = `ahead-staging-${hostname()}-99999998-0123456789ab`;
    const running = `staging-${hostname()}-${process.pid}-0123456789ab`;
    for (const name of [dead, older, running]) {
      await mkdir(join(outDir, "_spi-static", name), { recursive: true });
      await writeFile(join(outDir, "_spi-static", name, "0.xml"), "<half");
    }
    removeStaleStaging(outDir);
    expect(await readdir(join(outDir, "_spi-static"))).toEqual([running]);
  });

  it("gives back what it staged, byte for byte, until it is dropped", async () => {
    const outDir = freshOut();
    const staging = openStagingFolder(outDir);
    expect(staging.write("ahead-0.xml", Buffer.from("<first/>"))).toBe(true);
    expect(await readFile(staging.pathOf("ahead-0.xml"), "utf8")).toBe("<first/>");
    staging.drop();
    await expect(readFile(staging.pathOf("ahead-0.xml"))).rejects.toThrow(/ENOENT/);
    expect(await readdir(join(outDir, "_spi-static"))).toEqual([]);
  });
});
