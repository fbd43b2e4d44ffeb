import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/loopbackPort.js";
import { WORKER_PATH } from "../../src/edge/edgeFiles.js";
import { KEYED_SI_PATH } from "../../src/site/siteContract.js";
import { runInProcess } from "../cli/runInProcess.js";
import { VALID_KEYS } from "./builtSite.js";
import { REQUEST_DEFAULTS } from "./requestMatrix.js";

/**
 * The real wrangler (the pinned devDependency) on a project made by `spi-static init` and built
 * as users build it: the config at the project root is the user's, out/ holds what is served.
 * Offline: no metrics, no update check (it runs with the banner), no request.cf download, and a
 * proxy on loopback that counts any other request wrangler would make.
 */
const WRANGLER = resolve("node_modules/wrangler/bin/wrangler.js");
const root = await mkdtemp(join(tmpdir(), "spi-wrangler-"));
const project = join(root, "my-radio");
const HOST = "rdns.myradio.example";
/** The FM bearer of the init scaffold's one service (fm:ce1.c123.09580). */
const BEARER = "fm/ce1/c123/09580";

let proxy: Server;
let proxied = 0;
let dev: ChildProcess | undefined;
let devOutput = "";
let today = "";

function wranglerEnv(): NodeJS.ProcessEnv {
  const trap = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  return {
    PATH: process.env.PATH,
    HOME: root,
    XDG_CONFIG_HOME: join(root, "config"),
    WRANGLER_LOG_PATH: join(root, "logs"),
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    WRANGLER_HIDE_BANNER: "true",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    HTTP_PROXY: trap,
    HTTPS_PROXY: trap,
    NO_PROXY: "127.0.0.1,localhost,::1",
  };
}

function wrangler(args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number; output: string }>((done) => {
    execFile(
      process.execPath,
      [WRANGLER, ...args],
      { cwd: project, env: { ...wranglerEnv(), ...env }, maxBuffer: 16 << 20 },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

const build = (...options: string[]) =>
  runInProcess(["build", ...options], project, { SPI_API_KEYS: VALID_KEYS.join(",") });

beforeAll(async () => {
  proxy = createServer((socket) => {
    proxied += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
  expect((await runInProcess(["init", "my-radio"], root)).exitCode).toBe(0);
  const built = await build();
  expect(built.exitCode, built.stderr).toBe(0);
  // The build's own day (today in the provider's zone) is the middle of the 17 PI files.
  const days = (await readdir(join(project, "out/radiodns/spi/3.1/id", HOST, "main"))).sort();
  today = (days[8] ?? "").slice(0, 8);
});

afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) process.kill(-dev.pid, "SIGTERM");
  await new Promise((done) => proxy.close(done));
  await rm(root, { recursive: true, force: true });
});

const reloads = () => devOutput.match(/Reloading local server/g)?.length ?? 0;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("a project deployed with the real wrangler", () => {
  it("is accepted by `wrangler deploy --dry-run`, which uploads no worker and no build state", async () => {
    expect(existsSync(join(project, "out/wrangler.jsonc"))).toBe(false);
    const dry = await wrangler(["deploy", "--dry-run"], { WRANGLER_LOG: "debug" });
    expect(dry.code, dry.output).toBe(0);
    expect(dry.output).toContain("--dry-run: exiting now.");
    expect(dry.output).toMatch(/env\.ASSETS +Assets/);
    const ignored = [...dry.output.matchAll(/^Ignoring asset: (.+)$/gm)].map((m) => m[1]);
    expect(ignored).toEqual(
      expect.arrayContaining([WORKER_PATH, ".assetsignore", "_spi-static/state.json"]),
    );
    // Every document is uploaded: none of them is ignored.
    expect(ignored.filter((path) => /^(radiodns|_keyed)\//.test(path ?? ""))).toEqual([]);
    expect(proxied).toBe(0);
  });

  it("answers under `wrangler dev` at once, as the edge rules say, without reloading in a loop", async () => {
    const port = await freePort();
    const inspector = await freePort();
    dev = spawn(
      process.execPath,
      [
        WRANGLER,
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--inspector-port",
        String(inspector),
        "--show-interactive-dev-session=false",
      ],
      { cwd: project, env: wranglerEnv(), detached: true },
    );
    const running = dev;
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`not ready in 30 s:\n${devOutput}`)), 30_000);
      const read = (chunk: Buffer) => {
        devOutput += chunk.toString();
        if (devOutput.includes(`Ready on http://127.0.0.1:${port}`)) {
          clearTimeout(timer);
          ready();
        }
      };
      running.stdout?.on("data", read);
      running.stderr?.on("data", read);
      running.on("exit", (code) => fail(new Error(`wrangler dev exited (${code}):\n${devOutput}`)));
    });

    const origin = `http://127.0.0.1:${port}`;
    const get = async (path: string, key?: string) => {
      const headers: Record<string, string> = { ...REQUEST_DEFAULTS };
      if (key) headers.authorization = `ClientIdentifier ${key}`;
      const response = await fetch(`${origin}/${path}`, {
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
    expect(reloads(), devOutput).toBe(0);

    // A build while it runs reloads it, at most once per file in out/ (the loop seen before gave
    // thousands), and then it settles.
    expect((await build("--force")).exitCode).toBe(0);
    await sleep(3000);
    const afterBuild = reloads();
    const filesInOut = (await readdir(join(project, "out"), { recursive: true })).length;
    expect(afterBuild).toBeLessThanOrEqual(filesInOut);
    await sleep(3000);
    expect(reloads(), devOutput).toBe(afterBuild);
    await check();
    expect(existsSync(join(project, "out/.wrangler"))).toBe(false);
    expect(proxied).toBe(0);
  }, 60_000);
});
