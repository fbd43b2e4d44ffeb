import { type ChildProcess, execFile, spawn } from "node:child_process";
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeLargerDataset } from "../build/largerDataset.js";

const CLI = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const KEY = "load-test-key-000000001";
const HOST = "rdns.aareradio.example";
const SERVICES = ["bern0", "klassik0", "lounge0", "news0", "pop0"];
/** Build A at NIGHT_A, build B (another originator: every document differs) the next night. */
const NIGHT_A = "2026-11-23T03:00:00Z";
const NIGHT_B = "2026-11-24T03:00:00Z";
/**
 * The preview's clock: its window (25 Nov ± 7) holds 2 Dec, which build B publishes and build A
 * prunes, so requests meet files being replaced and files being deleted.
 */
const PREVIEW_NOW = "2026-11-25T12:00:00Z";
/** 18 Nov … 2 Dec as yyyyMMdd: the preview's window. */
const DAYS = Array.from({ length: 15 }, (_, i) =>
  new Date(Date.UTC(2026, 10, 18 + i)).toISOString().slice(0, 10).replaceAll("-", ""),
);
const PRUNED_DAY = "20261202";

const CONNECTIONS = 200;
/**
 * Builds beside the load: at least BUILDS, and more (up to MAX_BUILDS) until MIN_REQUESTS were
 * sent, so a fast machine whose builds finish early still puts the preview under load. The load
 * stops after the builds (and after MAX_REQUESTS at most).
 */
const BUILDS = 4;
const MAX_BUILDS = 40;
const MIN_REQUESTS = CONNECTIONS * 10;
const MAX_REQUESTS = 150_000;

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
});

function cli(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, SPI_API_KEYS: KEY } },
      (error, _stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
    );
  });
}

/** `spi-static serve` as a user runs it, in its own process: a crash ends it. */
async function startServe(outDir: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--out", outDir, "--port", "0", "--now", PREVIEW_NOW],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  const origin = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = / at (http:\/\/127\.0\.0\.1:\d+) /.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`serve exited (${code}): ${seen}`)));
  });
  return { child, origin };
}

interface Target {
  path: string;
  headers: Record<string, string>;
  /** The asset behind it as build A and as build B wrote them, without its version attribute. */
  contents: string[];
  mayBeMissing: boolean;
}

async function targetsOf(refA: string, refB: string): Promise<Target[]> {
  const auth = { authorization: `ClientIdentifier ${KEY}` };
  const both = async (file: string) => [
    withoutVersion(await readFile(join(refA, file)).catch(() => Buffer.alloc(0))),
    withoutVersion(await readFile(join(refB, file))),
  ];
  const targets: Target[] = [
    {
      path: "/radiodns/spi/3.1/SI.xml",
      headers: {},
      contents: await both("radiodns/spi/3.1/SI.xml"),
      mayBeMissing: false,
    },
    {
      path: "/radiodns/spi/3.1/SI.xml",
      headers: auth,
      contents: await both("_keyed/radiodns/spi/3.1/SI.xml"),
      mayBeMissing: false,
    },
  ];
  for (const service of SERVICES) {
    for (const day of DAYS) {
      const path = `/radiodns/spi/3.1/id/${HOST}/${service}/${day}_PI.xml`;
      targets.push({
        path,
        headers: auth,
        contents: await both(path.slice(1)),
        mayBeMissing: day === PRUNED_DAY,
      });
    }
  }
  return targets;
}

/**
 * A document's text without its version attribute: every build here changes every document, so
 * each one raises the versions (1 in the reference folders, more in the folder under load).
 */
function withoutVersion(document: Buffer): string {
  return document.toString("utf8").replace(/ version="\d+"/, "");
}

interface Outcome {
  status: number;
  declaredLength: number | undefined;
  body: Buffer;
  ms: number;
}

function get(agent: Agent, origin: string, target: Target): Promise<Outcome> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${target.path}`, { agent, headers: target.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const length = res.headers["content-length"];
        resolve({
          status: res.statusCode ?? 0,
          declaredLength: length === undefined ? undefined : Number(length),
          body: Buffer.concat(chunks),
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the preview under load while builds rewrite and prune its files", () => {
  it(`answers ${CONNECTIONS} concurrent connections with complete documents only, and keeps running`, async () => {
    const base = await mkdtemp(join(tmpdir(), "spi-load-"));
    const [dataA, dataB, refA, refB, outDir] = ["data-a", "data-b", "ref-a", "ref-b", "out"].map(
      (name) => join(base, name),
    ) as [string, string, string, string, string];
    await writeLargerDataset(dataA, { services: SERVICES.length });
    await writeLargerDataset(dataB, {
      services: SERVICES.length,
      originator: "Aare Radio Group AG",
    });
    const buildInto = (data: string, out: string, now: string) =>
      cli(["build", "--data", data, "--out", out, "--now", now, "--quiet"]);
    await buildInto(dataA, refA, NIGHT_A);
    await buildInto(dataB, refB, NIGHT_B);
    await cp(refA, outDir, { recursive: true });
    const targets = await targetsOf(refA, refB);
    const { child, origin } = await startServe(outDir);

    const figures = { requests: 0, errors: 0, truncated: 0, missing: 0 };
    let builds = 0;
    let buildsDone = false;
    let buildError: unknown;
    const building = (async () => {
      while (builds < MAX_BUILDS && (builds < BUILDS || figures.requests < MIN_REQUESTS)) {
        await (builds % 2 === 0
          ? buildInto(dataB, outDir, NIGHT_B)
          : buildInto(dataA, outDir, NIGHT_A));
        builds++;
      }
      buildsDone = true;
    })().catch((error: unknown) => {
      buildError = error;
    });

    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const problems: string[] = [];
    const latencies: number[] = [];
    let next = 0;
    const done = () => buildsDone || buildError !== undefined || figures.requests >= MAX_REQUESTS;
    async function connection() {
      while (!done()) {
        const target = targets[next++ % targets.length] as Target;
        figures.requests++;
        let outcome: Outcome;
        try {
          outcome = await get(agent, origin, target);
        } catch (error) {
          figures.errors++;
          problems.push(`${target.path}: ${(error as Error).message}`);
          continue;
        }
        latencies.push(outcome.ms);
        const { status, body, declaredLength } = outcome;
        if (status === 404 && target.mayBeMissing) {
          figures.missing++;
        } else if (status !== 200) {
          figures.errors++;
          problems.push(`${target.path}: ${status} ${body.toString().slice(0, 120)}`);
        } else if (!target.contents.includes(withoutVersion(body))) {
          const text = withoutVersion(body);
          const partial =
            declaredLength !== body.length || target.contents.some((v) => v.startsWith(text));
          if (partial) figures.truncated++;
          else figures.errors++;
          problems.push(`${target.path}: ${body.length} bytes, declared ${declaredLength}`);
        } else if (declaredLength !== body.length) {
          figures.errors++;
          problems.push(`${target.path}: Content-Length ${declaredLength}, ${body.length} bytes`);
        }
      }
    }
    await Promise.all(Array.from({ length: CONNECTIONS }, connection));
    await building;
    agent.destroy();

    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99)] ?? Number.NaN;
    // Reported, not asserted: timing belongs to the benchmark, not to a test.
    console.log(
      `preview under load: ${figures.requests} requests on ${CONNECTIONS} connections beside ${builds} builds: ` +
        `${figures.errors} errors, ${figures.truncated} truncated, ${figures.missing} 404 for the pruned day, p99 ${p99.toFixed(1)} ms`,
    );
    expect(buildError).toBeUndefined();
    expect(builds).toBeGreaterThanOrEqual(BUILDS);
    expect(problems.slice(0, 10)).toEqual([]);
    expect(figures).toMatchObject({ errors: 0, truncated: 0 });
    expect(figures.requests).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(child.exitCode, "serve is still running").toBeNull();
  }, 600_000);
});
