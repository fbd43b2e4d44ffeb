import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real nginx for the nginx tests (test/nginx/) and the benchmark (measureNginx.ts): one
 * launcher, so both run the module `spi-static nginx` writes under the same configuration.
 */
export const NGINX = "/usr/sbin/nginx";
export const NJS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so";

export interface RunningNginx {
  prefix: string;
  /** The master process's pid (its one worker is its child). */
  pid: number;
  stop(): Promise<void>;
  errorLog(): Promise<string>;
}

export interface NginxOptions {
  /** The `http {}` body: the includes under test. */
  httpBody: string;
  /** nginx is ready when this port accepts connections. */
  readyPort: number;
  /** Its prefix folder; a new temporary one when not given. */
  prefix?: string;
  /** The error log's level: `info` shows njs's own log lines, `warn` keeps a benchmark quiet. */
  logLevel?: "info" | "warn";
}

/**
 * nginx in a prefix with its own pid file, error log and temp folders, one worker process,
 * serving `httpBody`. It runs in the foreground as this process's child: stop() ends it.
 */
export async function startNginx({
  httpBody,
  readyPort,
  prefix,
  logLevel = "info",
}: NginxOptions): Promise<RunningNginx> {
  const root = prefix ?? (await mkdtemp(join(tmpdir(), "spi-nginx-")));
  const temp = join(root, "temp");
  await mkdir(temp, { recursive: true });
  const conf = join(root, "nginx.conf");
  // As root, nginx's workers would drop to nobody, who cannot read the test's 0700 folders.
  const user = process.getuid?.() === 0 ? "user root;" : "";
  await writeFile(
    conf,
    `load_module ${NJS_MODULE};
${user}
worker_processes 1;
pid ${root}/nginx.pid;
error_log ${root}/error.log ${logLevel};
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${temp};
    proxy_temp_path ${temp};
    fastcgi_temp_path ${temp};
    uwsgi_temp_path ${temp};
    scgi_temp_path ${temp};
${httpBody}
}
`,
  );
  const child = spawn(NGINX, ["-p", root, "-c", conf, "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  for (let attempt = 0; !(await accepts(readyPort)); attempt++) {
    if (child.exitCode !== null || attempt > 200) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    prefix: root,
    pid: child.pid as number,
    errorLog: () => readFile(join(root, "error.log"), "utf8"),
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
