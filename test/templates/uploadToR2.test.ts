import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { servedDocuments } from "../../src/build/uploadList.js";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { COMPATIBILITY_DATE, edgeSiteOf } from "../../src/edge/edgeFiles.js";
import { createEdgeWorker, type EdgeEnv } from "../../src/edge/edgeRules.js";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";
import { folderAssets } from "../../src/serve/folderAssets.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { BUILD_NOW, DATA_DIR, VALID_KEYS } from "../edge/builtSite.js";
import { type BucketView, openProjectBucket, serveLocalBucket } from "../edge/localBucket.js";
import { offlineWrangler } from "../edge/offlineWrangler.js";
import {
  headersOf,
  MATRIX,
  type MatrixRow,
  type Observed,
  observe,
  SETUPS,
  type Setup,
  type SetupName,
} from "../edge/requestMatrix.js";
import { sendRaw } from "../edge/sendRaw.js";

/**
 * templates/upload-to-r2.sh on its wrangler branch (`SPI_R2_WHERE=--local`), then the real
 * `wrangler dev` (offline, test/edge/offlineWrangler.ts) serving the request matrix from the
 * bucket it filled: two nights, the second removing a service, with failing uploads.
 *
 * The script's `wrangler r2 object …` calls reach wrangler's local bucket through a stand-in
 * (fakeCommands/wrangler-local: the real one starts a wrangler and a workerd per object, 3–11 s
 * each here, minutes for a night) that opens the bucket as wrangler does (test/edge/localBucket.ts), and
 * lets the test check after every single put and delete that no SI in the bucket names a
 * service or a logo the bucket lacks. What the stand-in wrote, the real wrangler dev serves.
 *
 * Then its rclone branch: the real rclone against s3rver, an S3 server, on loopback.
 */
const BUCKET = "spi-upload-test";
const SCRIPT = resolve("templates/upload-to-r2.sh");
const FAKES = resolve("test/templates/fakeCommands");
const DAY_MS = 86_400_000;
const NIGHT_2 = new Date(Date.parse(BUILD_NOW) + DAY_MS).toISOString();
/** Night 2 no longer carries this service. */
const REMOVED = "pop";
const RECORD = "_spi-static/uploaded.json";
const SI_PATHS = [OPEN_SI_PATH, KEYED_SI_PATH];

const root = await mkdtemp(join(tmpdir(), "spi-upload-r2-"));
const dataDir = join(root, "data");
const project = join(root, "site");
const outDir = join(project, "out");
const callsFile = join(root, "calls.txt");
const sleepsFile = join(root, "sleeps.txt");
const wrangler = await offlineWrangler(root, project);
const execFileAsync = promisify(execFile);

beforeAll(async () => {
  await cp(DATA_DIR, dataDir, { recursive: true });
  await mkdir(project);
  await build(BUILD_NOW);
});

afterAll(async () => {
  await wrangler.close();
  await rm(root, { recursive: true, force: true });
});

async function build(now: string) {
  const result = await buildSite({
    dataDir,
    outDir,
    now: Date.parse(now),
    keys: { keysList: VALID_KEYS.join(",") },
  });
  expect(result.brokenServices).toEqual([]);
}

interface Upload {
  code: number;
  stderr: string;
  /** Each `npx --no -- …` call in order, as `wrangler r2 object put <bucket>/<key> …`. */
  calls: string[];
  sleeps: string[];
  /** After a put or delete: an SI in the bucket named what the bucket lacked. */
  violations: string[];
}

/** The script in the project, on wrangler's local bucket; `env` adds failures or another client. */
async function upload(env: Record<string, string> = {}): Promise<Upload> {
  await Promise.all([callsFile, sleepsFile].map((file) => writeFile(file, "")));
  await rm(`${callsFile}.failed`, { force: true });
  const violations: string[] = [];
  // A test that brings its own wrangler stand-in has no use for the bucket.
  const standIn = env.SPI_TEST_WRANGLER === undefined;
  const local = standIn ? await openProjectBucket(project, BUCKET) : undefined;
  const front =
    local &&
    (await serveLocalBucket(local, BUCKET, SI_PATHS, (operation, view) => {
      const missing = unservable(view);
      if (missing.length > 0) violations.push(`after ${operation}: ${missing.join(", ")}`);
    }));
  try {
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((done) => {
      const child = spawn("sh", [SCRIPT], {
        cwd: project,
        env: {
          ...wrangler.env,
          PATH: `${FAKES}:${process.env.PATH}`,
          SPI_R2_BUCKET: BUCKET,
          SPI_R2_WHERE: "--local",
          SPI_TEST_CALLS: callsFile,
          SPI_TEST_SLEEPS: sleepsFile,
          SPI_TEST_CLI: resolve("dist/cli/main.js"),
          SPI_TEST_WRANGLER: join(FAKES, "wrangler-local"),
          SPI_TEST_BUCKET_URL: front?.url ?? "",
          ...env,
        },
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.on("close", (code) => done({ code: code ?? 1, stderr }));
    });
    const lines = async (file: string) =>
      (await readFile(file, "utf8")).split("\n").filter(Boolean);
    return {
      code,
      stderr,
      calls: await lines(callsFile),
      sleeps: await lines(sleepsFile),
      violations,
    };
  } finally {
    await front?.close();
    await local?.close();
  }
}

/**
 * What the SIs in the bucket name that the bucket cannot serve: a logo it lacks, or a service
 * without its PI document of night 2's date (in both nights' windows).
 */
function unservable(view: BucketView): string[] {
  const missing: string[] = [];
  const date = NIGHT_2.slice(0, 10).replaceAll("-", "");
  for (const path of SI_PATHS) {
    const si = view.text(path) ?? "";
    for (const [, logo] of si.matchAll(/ url="https:\/\/[^/"]+\/(logos\/[^"]+)"/g)) {
      if (!view.keys.has(logo as string)) missing.push(`${path} names ${logo}`);
    }
    for (const [, fqdn, id] of si.matchAll(
      /<radiodns fqdn="([^"]+)" serviceIdentifier="([^"]+)"/g,
    )) {
      const pi = `radiodns/spi/3.1/id/${fqdn}/${id}/${date}_PI.xml`;
      if (!view.keys.has(pi)) missing.push(`${path} names ${id}, whose ${pi} is missing`);
    }
  }
  return missing;
}

/** The bucket as it is now: its keys and the bytes of each. */
async function bucketNow(): Promise<Map<string, Buffer>> {
  const local = await openProjectBucket(project, BUCKET);
  try {
    const keys = await local.keys();
    const bodies = await Promise.all(
      keys.map(async (key) => (await local.get(key)) ?? Buffer.alloc(0)),
    );
    return new Map(keys.map((key, i) => [key, bodies[i] as Buffer]));
  } finally {
    await local.close();
  }
}

const viewOf = (objects: Map<string, Buffer>): BucketView => ({
  keys: new Set(objects.keys()),
  text: (key) => objects.get(key)?.toString(),
});

/** The bucket holds out/'s documents byte for byte, nothing else but the upload's record. */
async function expectMirrorOfOut(objects: Map<string, Buffer>) {
  expect(unservable(viewOf(objects))).toEqual([]);
  const served = await servedDocuments(outDir);
  expect([...objects.keys()].filter((key) => key !== RECORD)).toEqual([...served.keys()].sort());
  for (const path of served.keys()) {
    expect(objects.get(path)?.equals(await readFile(join(outDir, path))), path).toBe(true);
  }
  const record = JSON.parse(objects.get(RECORD)?.toString() ?? "{}") as { documents?: object };
  expect(Object.keys(record.documents ?? {}).sort()).toEqual([...served.keys()].sort());
}

let night1Record: string | undefined;
const removedPrefix = `radiodns/spi/3.1/id/rdns.aareradio.example/${REMOVED}/`;
const kind = (call: string) =>
  /^wrangler r2 object (put|delete) [^/]+\/(.*?)( --file|\s--local)/.exec(call)?.slice(1, 3) ?? [];

describe("templates/upload-to-r2.sh, wrangler branch, on wrangler's local bucket", () => {
  it("night 1: a first upload puts every document, then the SI, then the record", async () => {
    const night = await upload();
    expect(night.stderr).not.toMatch(/unexpected|simulated/);
    expect(night.code, night.stderr).toBe(0);
    expect(night.violations).toEqual([]);
    expect(night.calls[0]).toBe(
      `wrangler r2 object get ${BUCKET}/${RECORD} --file upload/bucket.json --local`,
    );
    expect(night.calls[1]).toBe("spi-static upload-list --out out --to upload");
    const puts = night.calls.slice(2).map(kind);
    const siAt = puts.findIndex(([, path]) => path === OPEN_SI_PATH || path === KEYED_SI_PATH);
    expect(
      puts
        .slice(siAt, siAt + 2)
        .map(([, path]) => path)
        .sort(),
    ).toEqual([OPEN_SI_PATH, KEYED_SI_PATH].sort());
    expect(puts.at(-1)).toEqual(["put", RECORD]);
    expect(puts.every(([operation]) => operation === "put")).toBe(true);
    expect(siAt).toBe(puts.length - 3);
    const objects = await bucketNow();
    await expectMirrorOfOut(objects);
    night1Record = objects.get(RECORD)?.toString();
  }, 120_000);

  it("the real wrangler dev serves every row of the request matrix on the keyed site from that bucket as the rules do from out/", async () => {
    // One wrangler dev per setup, its secret and clock given as --var (a reload on a changed
    // config costs as much and its watcher can miss a change on a loaded machine). Here go the
    // setups that differ in wiring: the build's clock, the key override and a broken secret. The
    // clocks around midnight run the same worker code on other dates, and the openPi and ownHost
    // setups are other sites: workerd serves those from a bucket, row for row, in
    // test/edge/requestMatrix.test.ts. https rows need TLS: wrangler dev here has none.
    const setups: SetupName[] = ["build", "override", "brokenSecret"];
    const rows = MATRIX.filter((row) => setups.includes(row.setup) && !row.httpsOnly);
    const { broadcaster } = await loadBroadcaster(dataDir);
    if (!broadcaster) throw new Error(`${dataDir} does not load`);
    const worker = createEdgeWorker(edgeSiteOf(broadcaster, VALID_KEYS.map(digestOfKey)));
    await writeFile(
      join(project, "wrangler.jsonc"),
      JSON.stringify({
        name: "spi-upload-test",
        main: "out/_worker.js",
        compatibility_date: COMPATIBILITY_DATE,
        no_bundle: true,
        // docs/deploy.md, "Past the assets limit": the binding in place of "assets".
        r2_buckets: [{ binding: "DOCUMENTS", bucket_name: BUCKET }],
      }),
    );
    const direct = new Map<MatrixRow, Observed>();
    const viaWrangler = new Map<MatrixRow, Observed>();
    for (const setup of setups) {
      const { now, apiKeySha256 } = setupOf(setup);
      const vars = [
        `SPI_FIXED_NOW:${now}`,
        ...(apiKeySha256 ? [`API_KEY_SHA256:${apiKeySha256}`] : []),
      ];
      const dev = await wrangler.dev(
        90_000,
        vars.flatMap((v) => ["--var", v]),
      );
      try {
        const port = Number(new URL(dev.origin).port);
        const env: EdgeEnv = { ASSETS: folderAssets(outDir), SPI_FIXED_NOW: now };
        if (apiKeySha256) env.API_KEY_SHA256 = apiKeySha256;
        for (const row of rows.filter((r) => r.setup === setup)) {
          const request = new Request(`${row.origin}${row.target}`, {
            method: row.method,
            headers: headersOf(row, direct),
          });
          direct.set(row, await observe(await worker.fetch(request, env)));
          viaWrangler.set(row, await sendRaw({ http: port, https: port }, row, viaWrangler));
        }
      } finally {
        await dev.stop();
      }
    }
    const differences = rows
      .filter((row) => comparable(viaWrangler.get(row)) !== comparable(direct.get(row)))
      .map((row) => `${row.name}: ${comparable(viaWrangler.get(row)).slice(0, 200)}`);
    expect(differences).toEqual([]);
    expect(new Set(rows.map((row) => row.setup)).size).toBe(setups.length);
    expect(viaWrangler.size).toBe(rows.length);
    expect(rows.length).toBeGreaterThan(150);
    expect(wrangler.proxied()).toBe(0);
  }, 240_000);

  it("night 2, a service removed: the SI put fails at every try; no delete runs, the old SI still finds what it names", async () => {
    await rm(join(dataDir, "services", `${REMOVED}.yaml`));
    await rm(join(dataDir, "schedules", `${REMOVED}.yaml`));
    await build(NIGHT_2);
    const siPut = `wrangler r2 object put ${BUCKET}/${KEYED_SI_PATH} `;
    const night = await upload({ SPI_TEST_FAIL_ALWAYS: `${siPut}*` });
    expect(night.code).not.toBe(0);
    expect(night.calls.filter((call) => call.startsWith(siPut))).toHaveLength(4);
    expect(night.sleeps).toEqual(["5", "10", "15"]);
    expect(night.calls.map(kind).filter(([operation]) => operation === "delete")).toEqual([]);
    expect(night.violations).toEqual([]);
    const objects = await bucketNow();
    expect(unservable(viewOf(objects))).toEqual([]);
    expect(objects.get(RECORD)?.toString()).toBe(night1Record);
    expect([...objects.keys()].filter((key) => key.startsWith(removedPrefix)).length).toBe(17);
  }, 120_000);

  it("the next run plans the whole night again, retries a delete that fails once, and leaves a mirror of out/", async () => {
    const night = await upload({
      SPI_TEST_FAIL_ONCE: `wrangler r2 object delete ${BUCKET}/${removedPrefix}*`,
    });
    expect(night.stderr).toMatch(/simulated failure of: wrangler r2 object delete/);
    expect(night.code, night.stderr).toBe(0);
    expect(night.sleeps).toEqual(["5"]);
    expect(night.violations).toEqual([]);
    const operations = night.calls.map(kind).filter((operation) => operation.length > 0);
    const lastSi = operations.findLastIndex(([, path]) => SI_PATHS.includes(path as string));
    const firstDelete = operations.findIndex(([operation]) => operation === "delete");
    expect(lastSi).toBeGreaterThan(0);
    expect(firstDelete).toBeGreaterThan(lastSi);
    expect(operations.at(-1)).toEqual(["put", RECORD]);
    const deleted = operations.filter(([operation]) => operation === "delete").map(([, p]) => p);
    const removed = deleted.filter((path) => path?.startsWith(removedPrefix));
    // Its 17 PI documents, one of them twice: the try that failed and the one after it.
    expect([removed.length, new Set(removed).size]).toEqual([18, 17]);
    const objects = await bucketNow();
    await expectMirrorOfOut(objects);
    for (const path of SI_PATHS)
      expect(objects.get(path)?.toString()).not.toMatch(`serviceIdentifier="${REMOVED}"`);
  }, 120_000);
});

describe("templates/upload-to-r2.sh, rclone branch: the real rclone on an S3 server on loopback (s3rver)", () => {
  /** What the server did, in order: `put <key>` or `delete <key>`. */
  const changes: string[] = [];
  /** The bucket's keys and the SIs' text as each change left them (the script puts from out/). */
  const keys = new Set<string>();
  const texts = new Map<string, string>();
  const violations: string[] = [];
  let front: Server | undefined;
  let s3: Record<string, string> = {};

  beforeAll(async () => {
    const server = new S3rver({
      silent: true,
      directory: join(root, "s3"),
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    await server.configureBuckets();
    const handle = server.callback();
    // Each put and delete the server answered, logged in front of it as rclone sent it (s3rver's
    // own events miss some of many deletes at once).
    front = createServer((request, response) => {
      response.on("finish", () => {
        const key = decodeURIComponent(new URL(request.url ?? "/", "http://x").pathname).slice(
          `/${BUCKET}/`.length,
        );
        const put = request.method === "PUT" && response.statusCode === 200;
        if (key === "" || !(put || (request.method === "DELETE" && response.statusCode === 204)))
          return;
        changes.push(`${put ? "put" : "delete"} ${key}`);
        if (put) keys.add(key);
        else keys.delete(key);
        if (SI_PATHS.includes(key)) texts.set(key, readFileSync(join(outDir, key), "utf8"));
        const missing = unservable({ keys, text: (path) => texts.get(path) });
        if (missing.length > 0) violations.push(`after ${changes.at(-1)}: ${missing.join(", ")}`);
      });
      handle(request, response);
    });
    await new Promise<void>((ready) => front?.listen(0, "127.0.0.1", ready));
    const { port } = front.address() as { port: number };
    s3 = {
      SPI_R2_WHERE: "",
      R2_ACCESS_KEY_ID: "S3RVER",
      R2_SECRET_ACCESS_KEY: "S3RVER",
      R2_ENDPOINT: `http://127.0.0.1:${port}`,
      // Only the deploy goes through wrangler on this branch: a stand-in that succeeds.
      SPI_TEST_WRANGLER: "true",
    };
  });

  afterAll(async () => {
    await new Promise((done) => front?.close(done));
  });

  /** The bucket as rclone reads it back: every key and its bytes. */
  async function bucketViaRclone(): Promise<Map<string, Buffer>> {
    const copy = await mkdtemp(join(root, "bucket-"));
    // --fast-list: one listing of the whole bucket (s3rver answers listings by folder wrongly).
    await execFileAsync("rclone", ["copy", `r2:${BUCKET}`, copy, "--fast-list"], {
      env: { ...wrangler.env, ...rcloneSettings(s3) },
    });
    const files = await readdir(copy, { recursive: true, withFileTypes: true });
    const objects = new Map<string, Buffer>();
    for (const file of files.filter((entry) => entry.isFile())) {
      const path = join(file.parentPath, file.name);
      objects.set(relative(copy, path), await readFile(path));
    }
    await rm(copy, { recursive: true });
    return new Map([...objects].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  it("a new bucket: every document, then the SI, then the record; the bucket a mirror of out/", async () => {
    const night = await upload(s3);
    expect(night.code, night.stderr).toBe(0);
    expect(violations).toEqual([]);
    expect(changes.every((change) => change.startsWith("put "))).toBe(true);
    const siAt = changes.findIndex((change) => SI_PATHS.includes(change.slice(4)));
    expect(
      changes
        .slice(siAt, -1)
        .map((change) => change.slice(4))
        .sort(),
    ).toEqual([...SI_PATHS].sort());
    expect(changes.at(-1)).toBe(`put ${RECORD}`);
    await expectMirrorOfOut(await bucketViaRclone());
  }, 120_000);

  it("the next night, a service removed: only the night's changes; deletes after the SI; a mirror of out/", async () => {
    const gone = "news";
    await rm(join(dataDir, "services", `${gone}.yaml`));
    await rm(join(dataDir, "schedules", `${gone}.yaml`));
    await build(new Date(Date.parse(NIGHT_2) + DAY_MS).toISOString());
    changes.length = 0;
    const night = await upload(s3);
    expect(night.code, night.stderr).toBe(0);
    expect(violations).toEqual([]);
    const puts = changes.filter((change) => change.startsWith("put "));
    const served = await servedDocuments(outDir);
    // The new day's document of each service and the two SI, not the whole site again.
    expect(puts.length).toBeLessThan(served.size / 4);
    const deletes = changes.filter((change) => change.startsWith("delete "));
    const goneAt = `radiodns/spi/3.1/id/rdns.aareradio.example/${gone}/`;
    expect(deletes.filter((change) => change.includes(goneAt))).toHaveLength(17);
    const lastSi = changes.findLastIndex((change) => SI_PATHS.includes(change.slice(4)));
    expect(lastSi).toBeGreaterThan(-1);
    expect(changes.findIndex((change) => change.startsWith("delete "))).toBeGreaterThan(lastSi);
    expect(changes.at(-1)).toBe(`put ${RECORD}`);
    await expectMirrorOfOut(await bucketViaRclone());
  }, 120_000);
});

/** The script's rclone settings for the `s3` environment, for reading the bucket back. */
function rcloneSettings(s3: Record<string, string>): Record<string, string> {
  return {
    RCLONE_CONFIG_R2_TYPE: "s3",
    RCLONE_CONFIG_R2_PROVIDER: "Cloudflare",
    RCLONE_CONFIG_R2_ACCESS_KEY_ID: s3.R2_ACCESS_KEY_ID ?? "",
    RCLONE_CONFIG_R2_SECRET_ACCESS_KEY: s3.R2_SECRET_ACCESS_KEY ?? "",
    RCLONE_CONFIG_R2_ENDPOINT: s3.R2_ENDPOINT ?? "",
  };
}

const setupOf = (setup: SetupName): Setup => SETUPS[setup];

/** Status, headers that matter and body; the validators' values differ from way to way. */
function comparable(seen: Observed | undefined): string {
  return JSON.stringify(seen && { ...seen, validators: undefined });
}
