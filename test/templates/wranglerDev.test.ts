import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifySite } from "../../src/verify/verifySite.js";
import { runInProcess } from "../cli/runInProcess.js";
import { offlineWrangler } from "../edge/offlineWrangler.js";

/**
 * `npx wrangler dev` on a project made by `init` with "routes" set as docs/deploy.md says: the
 * real wrangler, offline (test/edge/offlineWrangler.ts), with a proxy on loopback counting any
 * request it would send out.
 */
const KEY = "wrangler-dev-key-00001";
const root = await mkdtemp(join(tmpdir(), "spi-wrangler-dev-"));
const project = join(root, "my-radio");
const config = join(project, "wrangler.jsonc");
const wrangler = await offlineWrangler(root, project);

beforeAll(async () => {
  expect((await runInProcess(["init", "my-radio"], root)).exitCode).toBe(0);
  // docs/deploy.md: remove the // before "routes", with your host in place of spi.example.org.
  const text = await readFile(config, "utf8");
  const routed = text.replace(
    /^(\s*)\/\/ ("routes": .*)spi\.example\.org/m,
    "$1$2spi.myradio.example",
  );
  expect(routed).not.toBe(text);
  await writeFile(config, routed);
  const built = await runInProcess(["build"], project, { SPI_API_KEYS: KEY });
  expect(built.exitCode, built.stderr).toBe(0);
});

afterAll(async () => {
  await wrangler.close();
  await rm(root, { recursive: true, force: true });
});

describe("wrangler dev with the documented routes", () => {
  it("passes verify with a key over http on this machine, as init's config says", async () => {
    const dev = await wrangler.dev();
    const report = await verifySite({ baseUrl: dev.origin, key: KEY, now: Date.now() });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await dev.stop();
    expect(wrangler.proxied()).toBe(0);
  }, 90_000);

  it("without init's dev host, answers every keyed request 400 https-required", async () => {
    const text = await readFile(config, "utf8");
    await writeFile(config, text.replace(/^\s*"dev": \{ "host": "localhost" \},\n/m, ""));
    const dev = await wrangler.dev();
    try {
      const report = await verifySite({ baseUrl: dev.origin, key: KEY, now: Date.now() });
      const keyed = report.checks.find((c) => c.name === "SI with the key");
      expect(keyed?.detail).toMatch(/^status 400, expected 200/);
    } finally {
      await dev.stop();
      await writeFile(config, text);
    }
  }, 90_000);
});
