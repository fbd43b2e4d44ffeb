import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { WORKER_PATH } from "../../src/edge/edgeFiles.js";
import { workerNameOf } from "../../src/edge/wranglerConfig.js";
import { type BuiltSite, buildTestSite, VALID_KEYS } from "./builtSite.js";

let built: BuiltSite;
let worker: string;

beforeAll(async () => {
  built = await buildTestSite();
  worker = await readFile(join(built.outDir, WORKER_PATH), "utf8");
});

describe("the edge files of a build", () => {
  it("never contain a plain key anywhere in out/, only digests in the worker", async () => {
    const files = (await readdir(built.outDir, { recursive: true, withFileTypes: true })).filter(
      (e) => e.isFile(),
    );
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = await readFile(join(file.parentPath, file.name), "utf8");
      for (const key of VALID_KEYS)
        expect(text.includes(key), `${file.name} holds a plain key`).toBe(false);
    }
    for (const key of VALID_KEYS) expect(worker).toContain(digestOfKey(key));
  });

  it("embed the rule module and this site's settings in a worker that imports nothing", () => {
    expect(worker).toContain("function createEdgeWorker(site)");
    expect(worker).toContain(
      `export default createEdgeWorker(${JSON.stringify(built.site, null, 2)});`,
    );
    expect(worker).not.toMatch(/\bimport\b|\brequire\(|node:|process\.|\bBuffer\b/);
  });

  it("make Pages run the worker for every path, and keep it and the build's state out of uploads", async () => {
    const routes = JSON.parse(await readFile(join(built.outDir, "_routes.json"), "utf8"));
    expect(routes).toEqual({ version: 1, include: ["/*"], exclude: [] });
    // The wrangler config is the user's, at the project root (init): never in out/.
    expect(existsSync(join(built.outDir, "wrangler.jsonc"))).toBe(false);
    const ignored = (await readFile(join(built.outDir, ".assetsignore"), "utf8")).split("\n");
    expect(ignored).toEqual(
      expect.arrayContaining([WORKER_PATH, "_routes.json", ".assetsignore", "_spi-static"]),
    );
  });

  it("name the Worker after the host literal, within Cloudflare's limits", () => {
    expect(workerNameOf("rdns.aareradio.example")).toBe("spi-rdns-aareradio-example");
    expect(workerNameOf("RDNS.Example.")).toBe("spi-rdns-example");
    const long = workerNameOf(`${"a".repeat(58)}.b.example`);
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/);
  });
});
