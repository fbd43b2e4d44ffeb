import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./loopbackPort.js";
import type { EdgeCase } from "./measureEdge.js";
import { NGINX, NJS_MODULE, startNginx } from "./nginxProcess.js";

const run = promisify(execFile);
const WRK = "/usr/bin/wrk";

export interface NginxFigure {
  name: string;
  status: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of nginx's worker process per request, and what that makes on one whole core. */
  cpuMicrosecondsPerRequest: number;
  requestsPerCoreSecond: number;
  /** Answers wrk counted as not 2xx/3xx, and socket errors. */
  non2xx: number;
  socketErrors: number;
}

/**
 * nginx with the module `spi-static nginx` writes, one worker process (one core), on loopback:
 * each case for `seconds` under wrk (one thread, `connections` keep-alive connections), after a
 * check that it answers the expected status; a sentence instead when nginx, njs or wrk is
 * missing. Besides wrk's requests per second (which a busy machine lowers), the CPU time of
 * nginx's worker per request (from /proc), and the requests per second that makes on a core.
 */
export async function measureNginx(
  cli: string,
  outDir: string,
  now: string,
  cases: EdgeCase[],
  seconds = 5,
  connections = 32,
): Promise<NginxFigure[] | string> {
  const missing = [NGINX, NJS_MODULE, WRK].filter((path) => !existsSync(path));
  if (missing.length > 0)
    return `not measured: ${missing.join(", ")} missing (.ci/system-packages)`;
  const prefix = await mkdtemp(join(tmpdir(), "spi-bench-nginx-"));
  const port = await freePort();
  await run(process.execPath, [
    ...[cli, "nginx", "--out", outDir, "--dir", join(prefix, "conf")],
    ...["--listen", `127.0.0.1:${port}`, "--now", now],
  ]);
  const nginx = await startNginx({
    httpBody: `    include ${join(prefix, "conf", "spi-static.conf")};`,
    readyPort: port,
    prefix,
    logLevel: "warn",
  });
  try {
    const figures: NginxFigure[] = [];
    for (const { name, path, headers, status } of cases) {
      const url = `http://127.0.0.1:${port}${path}`;
      const answer = await fetch(url, { headers });
      await answer.arrayBuffer();
      if (answer.status !== status)
        throw new Error(`nginx, ${name}: ${answer.status} instead of ${status}`);
      const header = Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
      const worker = await workerPid(nginx.pid);
      const cpuBefore = await cpuTicks(worker);
      const { stdout } = await run(WRK, [
        ...["-t1", `-c${connections}`, `-d${seconds}s`, "--latency", ...header, url],
      ]);
      const ticks = (await cpuTicks(worker)) - cpuBefore;
      const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
      const cpuMicroseconds = Math.round((ticks * 1e6) / CLOCK_TICKS / Math.max(requests, 1));
      figures.push({
        name,
        status,
        ...wrkFigures(stdout),
        cpuMicrosecondsPerRequest: cpuMicroseconds,
        requestsPerCoreSecond: Math.round(1e6 / Math.max(cpuMicroseconds, 1)),
      });
    }
    return figures;
  } finally {
    await nginx.stop();
  }
}

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in these. */
const CLOCK_TICKS = 100;

/** The one worker process nginx's master (our child) started. */
async function workerPid(master: number): Promise<number> {
  const { stdout } = await run("pgrep", ["-P", String(master)]);
  const pid = Number(stdout.trim().split("\n")[0]);
  if (!pid) throw new Error("no nginx worker process");
  return pid;
}

/** User and system CPU time of a process so far, in clock ticks. */
async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function wrkFigures(output: string) {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  const ms = (pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) return Number.NaN;
    const scale = { us: 0.001, ms: 1, s: 1000 }[match[2] as "us" | "ms" | "s"];
    return Math.round(Number(match[1]) * scale * 100) / 100;
  };
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  return {
    requestsPerSecond: Math.round(number(/Requests\/sec:\s+([\d.]+)/)),
    p50Ms: ms(/50%\s+([\d.]+)(us|ms|s)/),
    p99Ms: ms(/99%\s+([\d.]+)(us|ms|s)/),
    // wrk counts 4xx as "Non-2xx or 3xx": expected for the 401 and 404 cases.
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    socketErrors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}
