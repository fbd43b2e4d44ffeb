import { execFile, spawn } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { freePort } from "../../bench/loopbackPort.js";

/** The real wrangler: the pinned devDependency. */
const WRANGLER = resolve("node_modules/wrangler/bin/wrangler.js");

/** `wrangler dev` running, with everything it printed so far. */
export interface WranglerDev {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The real wrangler run offline on a project: no metrics, no update check, no request.cf
 * download, its home and logs under `root`, and a proxy on loopback that counts any other
 * request it would send out (`proxied`).
 */
export async function offlineWrangler(root: string, project: string) {
  let proxied = 0;
  const proxy = createServer((socket) => {
    proxied += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
  const trap = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const env: NodeJS.ProcessEnv = {
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
  const running = new Set<WranglerDev>();

  return {
    proxied: () => proxied,
    /** The environment it runs in, for a script that runs it itself. */
    env,

    run(args: string[], extra: NodeJS.ProcessEnv = {}) {
      return new Promise<{ code: number; output: string }>((done) => {
        execFile(
          process.execPath,
          [WRANGLER, ...args],
          { cwd: project, env: { ...env, ...extra }, maxBuffer: 16 << 20 },
          (error, stdout, stderr) =>
            done({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
        );
      });
    },

    /** `wrangler dev` on loopback with `args` added, once it says it is ready. */
    async dev(readyWithinMs = 40_000, args: string[] = []): Promise<WranglerDev> {
      const port = await freePort();
      const inspector = await freePort();
      const child = spawn(
        process.execPath,
        [WRANGLER, "dev", "--ip", "127.0.0.1", "--port", String(port)].concat([
          "--inspector-port",
          String(inspector),
          "--show-interactive-dev-session=false",
          ...args,
        ]),
        { cwd: project, env, detached: true },
      );
      let output = "";
      const dev: WranglerDev = {
        origin: `http://127.0.0.1:${port}`,
        output: () => output,
        stop() {
          running.delete(dev);
          const pid = child.pid;
          if (pid === undefined || child.exitCode !== null) return Promise.resolve();
          return new Promise((done) => {
            child.once("exit", () => done());
            // Its own process group: wrangler and the workerd it started, nothing else.
            process.kill(-pid, "SIGTERM");
          });
        },
      };
      running.add(dev);
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(
          () => fail(new Error(`not ready in ${readyWithinMs / 1000} s:\n${output}`)),
          readyWithinMs,
        );
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes(`Ready on ${dev.origin}`)) {
            clearTimeout(timer);
            ready();
          }
        };
        child.stdout?.on("data", read);
        child.stderr?.on("data", read);
        child.on("exit", (code) => fail(new Error(`wrangler dev exited (${code}):\n${output}`)));
      });
      return dev;
    },

    /** Stops any `wrangler dev` still running and the proxy. */
    async close() {
      await Promise.all([...running].map((dev) => dev.stop()));
      await new Promise((done) => proxy.close(done));
    },
  };
}
