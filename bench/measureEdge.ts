import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The edge rules in process, and the preview under load. The rules run once per request at the
 * edge, so their cost per request is what a deployment pays per core; the preview is the same
 * rules behind Node's HTTP server, reading the files from out/.
 */

interface EdgeWorker {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
}

export interface EdgeCase {
  name: string;
  path: string;
  headers: Record<string, string>;
  status: number;
}

/** A keyed PI (200), the same without a key (401), an unknown service (404). */
export function edgeCases(host: string, serviceId: string, date: string, key: string): EdgeCase[] {
  const pi = (service: string) => `/radiodns/spi/3.1/id/${host}/${service}/${date}_PI.xml`;
  const auth = { authorization: `ClientIdentifier ${key}` };
  return [
    { name: "keyed PI", path: pi(serviceId), headers: auth, status: 200 },
    { name: "PI without a key", path: pi(serviceId), headers: {}, status: 401 },
    { name: "unknown service", path: pi("unknown"), headers: auth, status: 404 },
  ];
}

/**
 * Requests per second on one thread (one core) for each case, for about `seconds` each, with the
 * assets held in memory: what is measured is the rules, not the disk.
 */
export async function measureEdgeRules(
  outDir: string,
  now: string,
  cases: EdgeCase[],
  seconds = 1,
) {
  const source = await readFile(join(outDir, "_worker.js"));
  const worker = (
    (await import(`data:text/javascript;base64,${source.toString("base64")}`)) as {
      default: EdgeWorker;
    }
  ).default;
  const assets = new Map<string, Buffer>();
  const env = {
    SPI_FIXED_NOW: now,
    ASSETS: {
      async fetch(request: Request): Promise<Response> {
        const path = new URL(request.url).pathname.slice(1);
        let bytes = assets.get(path);
        if (bytes === undefined) {
          bytes = await readFile(join(outDir, path)).catch(() => Buffer.alloc(0));
          assets.set(path, bytes);
        }
        return bytes.length === 0
          ? new Response(null, { status: 404 })
          : new Response(new Uint8Array(bytes), { headers: { ETag: '"bench"' } });
      },
    },
  };
  const results = [];
  for (const { name, path, headers, status } of cases) {
    const ask = async () => {
      const response = await worker.fetch(
        new Request(`https://spi.bench.example${path}`, { headers }),
        env,
      );
      await response.arrayBuffer();
      if (response.status !== status) {
        throw new Error(`${name}: ${response.status} instead of ${status}`);
      }
    };
    for (let i = 0; i < 200; i++) await ask(); // warm-up
    let requests = 0;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      for (let i = 0; i < 50; i++) await ask();
      requests += 50;
    }
    const elapsed = (performance.now() - started) / 1000;
    results.push({ name, status, requestsPerSecond: Math.round(requests / elapsed) });
  }
  return results;
}

/**
 * `spi-static serve` in its own process, `total` requests from `concurrency` clients at once,
 * the cases in turn: latency percentiles and how many answers were not the expected status.
 */
export async function measurePreviewUnderLoad(
  cli: string,
  outDir: string,
  now: string,
  cases: EdgeCase[],
  total = 3000,
  concurrency = 32,
) {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--out", outDir, "--port", "0", "--now", now],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  try {
    const origin = await originOf(child);
    const latencies: number[] = [];
    let errors = 0;
    let next = 0;
    const started = performance.now();
    const client = async () => {
      while (next < total) {
        const { path, headers, status } = cases[next++ % cases.length] as EdgeCase;
        const sent = performance.now();
        try {
          const response = await fetch(`${origin}${path}`, { headers });
          await response.arrayBuffer();
          if (response.status !== status) errors++;
        } catch {
          errors++;
        }
        latencies.push(performance.now() - sent);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (share: number) =>
      Math.round(
        (latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0) * 10,
      ) / 10;
    return {
      requests: total,
      concurrency,
      errors,
      requestsPerSecond: Math.round(total / seconds),
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      maxMs: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
    };
  } finally {
    child.kill();
  }
}

function originOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = / at (http:\/\/127\.0\.0\.1:\d+) /.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${seen}`)));
  });
}
