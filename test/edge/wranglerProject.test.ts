import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKER_PATH } from "../../src/edge/edgeFiles.js";
import { KEYED_SI_PATH } from "../../src/site/siteContract.js";
import { runInProcess } from "../cli/runInProcess.js";
import { VALID_KEYS } from "./builtSite.js";
import { offlineWrangler } from "./offlineWrangler.js";
import { REQUEST_DEFAULTS } from "./requestMatrix.js";

/**
 * The real wrangler on a project made by `spi-static init` and built as users build it: the
 * config at the project root is the user's, out/ holds what is served. Offline, with a proxy on
 * loopback that counts any other request wrangler would make (offlineWrangler.ts).
 */
const root = await mkdtemp(join(tmpdir(), "spi-wrangler-"));
const project = join(root, "my-radio");
const HOST = "rdns.myradio.example";
/** The FM bearer of the init scaffold's one service (fm:ce1.c123.09580). */
const BEARER = "fm/ce1/c123/09580";

let today = "";
const wrangler = await offlineWrangler(root, project);

const build = (...options: string[]) =>
  runInProcess(["build", ...options], project, { SPI_API_KEYS: VALID_KEYS.join(",") });

beforeAll(async () => {
  expect((await runInProcess(["init", "my-radio"], root)).exitCode).toBe(0);
  const built = await build();
  expect(built.exitCode, built.stderr).toBe(0);
  // The build's own day (today in the provider's zone) is the middle of the 17 PI files.
  const days = (await readdir(join(project, "out/radiodns/spi/3.1/id", HOST, "main"))).sort();
  today = (days[8] ?? "").slice(0, 8);
});

afterAll(async () => {
  await wrangler.close();
  await rm(root, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Whether `count` stays the same for `quietMs` on end, within `withinMs`. */
async function settles(count: () => number, quietMs: number, withinMs: number) {
  const start = Date.now();
  let seen = count();
  let since = start;
  while (Date.now() - start < withinMs) {
    await sleep(250);
    if (count() !== seen) [seen, since] = [count(), Date.now()];
    else if (Date.now() - since >= quietMs) return true;
  }
  return false;
}

describe("a project deployed with the real wrangler", () => {
  it("is accepted by `wrangler deploy --dry-run`, which uploads no worker and no build state", async () => {
    expect(existsSync(join(project, "out/wrangler.jsonc"))).toBe(false);
    const dry = await wrangler.run(["deploy", "--dry-run"], { WRANGLER_LOG: "debug" });
    expect(dry.code, dry.output).toBe(0);
    expect(dry.output).toContain("--dry-run: exiting now.");
    expect(dry.output).toMatch(/env\.ASSETS +Assets/);
    const ignored = [...dry.output.matchAll(/^Ignoring asset: (.+)$/gm)].map((m) => m[1]);
    expect(ignored).toEqual(
      expect.arrayContaining([WORKER_PATH, ".assetsignore", "_spi-static/state.json"]),
    );
    // Every document is uploaded: none of them is ignored.
    expect(ignored.filter((path) => /^(radiodns|_keyed)\//.test(path ?? ""))).toEqual([]);
    expect(wrangler.proxied()).toBe(0);
  });

  it("answers under `wrangler dev` at once, as the edge rules say, without reloading in a loop", async () => {
    const dev = await wrangler.dev(30_000);
    const reloads = () => dev.output().match(/Reloading local server/g)?.length ?? 0;
    const get = async (path: string, key?: string) => {
      const headers: Record<string, string> = { ...REQUEST_DEFAULTS };
      if (key) headers.authorization = `ClientIdentifier ${key}`;
      const response = await fetch(`${dev.origin}/${path}`, {
        headers,
        signal: AbortSignal.timeout(5000),
      });
      return { status: response.status, body: await response.text() };
    };
    const piPath = `radiodns/spi/3.1/id/${HOST}/main/${today}_PI.xml`;
    const pi = await readFile(join(project, "out", piPath), "utf8");
    const check = async () => {
      expect(await get(piPath, VALID_KEYS[0])).toEqual({ status: 200, body: pi });
      const unkeyed = await get(piPath);
      expect(unkeyed.status).toBe(401);
      expect(unkeyed.body).toContain('code="key-required"');
      expect(await get(`radiodns/spi/3.1/${BEARER}/${today}_PI.xml`, VALID_KEYS[1])).toEqual({
        status: 200,
        body: pi,
      });
      expect((await get(KEYED_SI_PATH, VALID_KEYS[0])).status).toBe(404);
      expect((await get("_spi-static/state.json", VALID_KEYS[0])).status).toBe(404);
    };
    await check();

    await sleep(3000);
    expect(reloads(), dev.output()).toBe(0);

    // A build while it runs reloads it, at most once per file in out/ (the loop seen before gave
    // thousands), and then it settles: no reload for 3 s. On a loaded machine wrangler works
    // through a build's reloads for several seconds, so settling is waited for, up to 40 s.
    expect((await build("--force")).exitCode).toBe(0);
    const filesInOut = (await readdir(join(project, "out"), { recursive: true })).length;
    expect(await settles(reloads, 3000, 40_000), dev.output()).toBe(true);
    expect(reloads()).toBeLessThanOrEqual(filesInOut);
    await check();
    expect(existsSync(join(project, "out/.wrangler"))).toBe(false);
    expect(wrangler.proxied()).toBe(0);
  }, 90_000);
});
