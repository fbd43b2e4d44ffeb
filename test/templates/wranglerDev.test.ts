import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../bench/loopbackPort.js";
import { verifySite } from "../../src/verify/verifySite.js";
import { runInProcess } from "../cli/runInProcess.js";

/**
 * `npx wrangler dev` on a project made by `init` with "routes" set as docs/deploy.md says: the
 * real wrangler (the pinned devDependency), offline as in test/edge/wranglerProject.test.ts, a
 * proxy on loopback counting any request it would send out.
 */
const WRANGLER = resolve("node_modules/wrangler/bin/wrangler.js");
const KEY = "wrangler-dev-key-00001";
const root = await mkdtemp(join(tmpdir(), "spi-wrangler-dev-"));
const project = join(root, "my-radio");
const config = join(project, "wrangler.jsonc");
let proxy: Server;
let proxied = 0;
let dev: ChildProcess | undefined;

async function wranglerDev(): Promise<string> {
  const port = await freePort();
  const inspector = await freePort();
  const trap = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  dev = spawn(
    process.execPath,
    [WRANGLER, "dev", "--ip", "127.0.0.1", "--port", String(port)].concat([
      "--inspector-port",
      String(inspector),
      "--show-interactive-dev-session=false",
    ]),
    {
      cwd: project,
      detached: true,
      env: {
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
      },
    },
  );
  const running = dev;
  let output = "";
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`not ready in 40 s:\n${output}`)), 40_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Ready on http://127.0.0.1:${port}`)) {
        clearTimeout(timer);
        ready();
      }
    };
    running.stdout?.on("data", read);
    running.stderr?.on("data", read);
    running.on("exit", (code) => fail(new Error(`wrangler dev exited (${code}):\n${output}`)));
  });
  return `http://127.0.0.1:${port}`;
}

function stopDev(): Promise<void> {
  const running = dev;
  dev = undefined;
  const pid = running?.pid;
  if (running === undefined || pid === undefined || running.exitCode !== null) {
    return Promise.resolve();
  }
  return new Promise((done) => {
    running.once("exit", () => done());
    // Its own process group: wrangler and the workerd it started, nothing else.
    process.kill(-pid, "SIGTERM");
  });
}

beforeAll(async () => {
  proxy = createServer((socket) => {
    proxied += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
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
  await stopDev();
  await new Promise((done) => proxy.close(done));
  await rm(root, { recursive: true, force: true });
});

describe("wrangler dev with the documented routes", () => {
  it("passes verify with a key over http on this machine, as init's config says", async () => {
    const origin = await wranglerDev();
    const report = await verifySite({ baseUrl: origin, key: KEY, now: Date.now() });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    await stopDev();
    expect(proxied).toBe(0);
  }, 90_000);

  it("without init's dev host, answers every keyed request 400 https-required", async () => {
    const text = await readFile(config, "utf8");
    await writeFile(config, text.replace(/^\s*"dev": \{ "host": "localhost" \},\n/m, ""));
    try {
      const origin = await wranglerDev();
      const report = await verifySite({ baseUrl: origin, key: KEY, now: Date.now() });
      const keyed = report.checks.find((c) => c.name === "SI with the key");
      expect(keyed?.detail).toMatch(/^status 400, expected 200/);
    } finally {
      await stopDev();
      await writeFile(config, text);
    }
  }, 90_000);
});
