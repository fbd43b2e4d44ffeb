import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const NGINX = "/usr/sbin/nginx";
export const NJS_MODULE = "/usr/lib/nginx/modules/ngx_http_js_module.so";

/**
 * Whether nginx with njs is here. Missing, the nginx tests skip on a developer's machine and
 * fail in CI (CI=true), where .ci/install-system-packages must have installed them.
 */
export function nginxAvailable(): boolean {
  const present = existsSync(NGINX) && existsSync(NJS_MODULE);
  if (!present && process.env.CI === "true") {
    throw new Error(`${NGINX} or ${NJS_MODULE} is missing: see .ci/system-packages`);
  }
  return present;
}

/** A port free on 127.0.0.1 now (the kernel's pick), for nginx to listen on. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A self-signed certificate for `spi.example`, for the rows sent over https. */
export async function selfSignedCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = join(dir, "cert.pem");
  const key = join(dir, "key.pem");
  await run("openssl", [
    ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
    ...["-subj", "/CN=spi.example", "-keyout", key, "-out", cert],
  ]);
  return { cert, key };
}

export interface RunningNginx {
  prefix: string;
  stop(): Promise<void>;
  errorLog(): Promise<string>;
}

/**
 * nginx in a temporary prefix with its own pid file, error log and temp folders, one worker
 * process, serving the `http {}` body given (the includes under test); ready when `readyPort`
 * accepts connections. It runs in the foreground as this process's child: stop() ends it.
 */
export async function startNginx(httpBody: string, readyPort: number): Promise<RunningNginx> {
  const prefix = await mkdtemp(join(tmpdir(), "spi-nginx-"));
  await mkdir(join(prefix, "temp"));
  const temp = join(prefix, "temp");
  const conf = join(prefix, "nginx.conf");
  // As root, nginx's workers would drop to nobody, who cannot read the test's 0700 folders.
  const user = process.getuid?.() === 0 ? "user root;" : "";
  await writeFile(
    conf,
    `load_module ${NJS_MODULE};
${user}
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log info;
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
  const child = spawn(NGINX, ["-p", prefix, "-c", conf, "-g", "daemon off;"], {
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
    prefix,
    errorLog: () => readFile(join(prefix, "error.log"), "utf8"),
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
