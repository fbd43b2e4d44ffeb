import { execFile } from "node:child_process";
import { mkdtemp, readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { beforeAll, describe, expect, it } from "vitest";
import { planUpload, servedDocuments } from "../../src/build/uploadList.js";
import { COMPATIBILITY_DATE, WORKER_PATH } from "../../src/edge/edgeFiles.js";
import { createEdgeWorker, type EdgeEnv } from "../../src/edge/edgeRules.js";
import { folderAssets } from "../../src/serve/folderAssets.js";
import { startPreviewServer } from "../../src/serve/previewServer.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { BUILD_NOW, type BuiltSite, buildTestSite, VALID_KEYS } from "./builtSite.js";
import { type LocalBucket, openLocalBucket } from "./localBucket.js";
import {
  headersOf,
  MATRIX,
  type MatrixRow,
  type Observed,
  observe,
  SETUPS,
  type Setup,
  type SetupName,
  type SiteName,
} from "./requestMatrix.js";
import { sendRaw } from "./sendRaw.js";

const run = promisify(execFile);
const CLI = resolve("dist/cli/main.js");

/** bucket: the same worker in workerd, the documents in a local R2 bucket instead of assets. */
type Way = "direct" | "preview" | "workerd" | "bucket";
const observed: Record<Way, Map<MatrixRow, Observed>> = {
  direct: new Map(),
  preview: new Map(),
  workerd: new Map(),
  bucket: new Map(),
};
let built: Record<SiteName, BuiltSite>;
let keyedOnlyLines: string[];

const setupNames = Object.keys(SETUPS) as SetupName[];
const rowsOf = (setup: SetupName) => MATRIX.filter((row) => row.setup === setup);
const setupOf = (setup: SetupName): Setup => SETUPS[setup];
const siteOf = (setup: SetupName): BuiltSite => built[setupOf(setup).site ?? "keyed"];
const ERROR_BODY =
  /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<error status="(\d{3})" code="([a-z-]+)">[^<]+<\/error>\n$/;

beforeAll(async () => {
  built = {
    keyed: await buildTestSite("keyed"),
    openPi: await buildTestSite("openPi"),
    ownHost: await buildTestSite("ownHost"),
  };
  const open = await readFile(join(built.keyed.outDir, OPEN_SI_PATH), "utf8");
  const keyed = await readFile(join(built.keyed.outDir, KEYED_SI_PATH), "utf8");
  const openLines = new Set(open.split("\n"));
  keyedOnlyLines = keyed.split("\n").filter((line) => !openLines.has(line));
});

/** Every way the rules answered a row differently from what the row expects. */
async function mismatches(way: Way): Promise<string[]> {
  const problems: string[] = [];
  for (const row of MATRIX) {
    if (way === "preview" && row.httpsOnly) continue;
    const seen = observed[way].get(row);
    if (!seen) {
      problems.push(`${row.name}: no response`);
      continue;
    }
    const { expected } = row;
    const wrong = (what: string, actual: unknown) =>
      problems.push(`${row.name}: ${what} was ${JSON.stringify(actual)}`);
    // Cloudflare's asset store keeps no modification time: there only the ETag validates.
    const status =
      way === "workerd" ? (expected.withoutLastModified ?? expected.status) : expected.status;
    if (seen.status !== status) wrong(`status (expected ${status})`, seen.status);
    const h = seen.headers;
    const bodiless = seen.status === 304 || seen.status === 204;
    const contentType = bodiless ? null : "application/xml; charset=utf-8";
    if (h["content-type"] !== contentType) wrong("content-type", h["content-type"]);
    if (h["x-content-type-options"] !== "nosniff")
      wrong("x-content-type-options", h["x-content-type-options"]);
    const cache = expected.preflight
      ? null
      : expected.open
        ? "public, max-age=3600"
        : expected.file
          ? "private, no-cache"
          : "private, no-store";
    if (h["cache-control"] !== cache) wrong("cache-control", h["cache-control"]);
    if (h.vary !== (expected.vary ? "Authorization" : null)) wrong("vary", h.vary);
    const allowed = expected.status === 405 || expected.preflight;
    if (h.allow !== (allowed ? "GET, HEAD" : null)) wrong("allow", h.allow);
    const cors = expected.cors || expected.preflight;
    if (h["access-control-allow-origin"] !== (cors ? "*" : null)) {
      wrong("access-control-allow-origin", h["access-control-allow-origin"]);
    }
    if (h["access-control-expose-headers"] !== (expected.cors ? "ETag" : null)) {
      wrong("access-control-expose-headers", h["access-control-expose-headers"]);
    }
    const preflightHeaders = [
      h["access-control-allow-methods"],
      h["access-control-allow-headers"],
      h["access-control-max-age"],
    ];
    const preflightExpected = expected.preflight
      ? ["GET, HEAD", "If-None-Match, If-Modified-Since", "86400"]
      : [null, null, null];
    if (preflightHeaders.join("|") !== preflightExpected.join("|")) {
      wrong("preflight headers", preflightHeaders);
    }
    if (h["www-authenticate"] !== (expected.status === 401 ? "ClientIdentifier" : null)) {
      wrong("www-authenticate", h["www-authenticate"]);
    }
    if (h.etag !== (expected.file ? "strong" : null)) wrong("etag", h.etag);
    if (expected.file) {
      const { mtime, size } = await stat(join(siteOf(row.setup).outDir, expected.file));
      const lastModified = way === "workerd" ? null : mtime.toUTCString();
      // R2 keeps when the object was put: the upload puts a document when it changed.
      if (
        way === "bucket"
          ? seen.validators.lastModified === null
          : seen.validators.lastModified !== lastModified
      )
        wrong("last-modified", seen.validators.lastModified);
      if (seen.status === 200 && h["content-length"] !== String(size))
        wrong(`content-length (expected ${size})`, h["content-length"]);
    }
    if (bodiless) {
      if (seen.body !== "") wrong(`${seen.status} body`, seen.body.slice(0, 80));
    } else if (row.method === "HEAD") {
      if (seen.body !== "") wrong("HEAD body", seen.body.slice(0, 80));
    } else if (expected.file) {
      const file = await readFile(join(siteOf(row.setup).outDir, expected.file), "utf8");
      if (seen.body !== file) wrong(`body (expected ${expected.file})`, seen.body.slice(0, 80));
    } else {
      const match = ERROR_BODY.exec(seen.body);
      if (match?.[1] !== String(expected.status) || match[2] !== expected.code)
        wrong("error body", seen.body);
    }
    if (
      expected.file !== KEYED_SI_PATH &&
      keyedOnlyLines.some((line) => seen.body.includes(line))
    ) {
      wrong("body with keyed SI content", seen.body.slice(0, 80));
    }
  }
  return problems;
}

describe("the request matrix", () => {
  it("has rows for every setup, and keyed-only content to watch for", () => {
    for (const setup of setupNames) expect(rowsOf(setup).length).toBeGreaterThan(0);
    expect(MATRIX.length).toBeGreaterThan(150);
    expect(keyedOnlyLines.some((line) => line.includes('<bearer id="http'))).toBe(true);
  });

  it("(a) the rule module called directly answers every row as expected", async () => {
    for (const setup of setupNames) {
      const { now, apiKeySha256 } = setupOf(setup);
      const { site, outDir } = siteOf(setup);
      const worker = createEdgeWorker(site);
      const env: EdgeEnv = { ASSETS: folderAssets(outDir), SPI_FIXED_NOW: now };
      if (apiKeySha256) env.API_KEY_SHA256 = apiKeySha256;
      for (const row of rowsOf(setup)) {
        const request = new Request(`${row.origin}${row.target}`, {
          method: row.method,
          headers: headersOf(row, observed.direct),
        });
        observed.direct.set(row, await observe(await worker.fetch(request, env)));
      }
    }
    expect(await mismatches("direct")).toEqual([]);
  });

  it("(b) the preview server over HTTP on 127.0.0.1 answers every row as expected", async () => {
    for (const setup of setupNames) {
      const { now, apiKeySha256 } = setupOf(setup);
      const preview = await startPreviewServer({
        outDir: siteOf(setup).outDir,
        port: 0,
        host: "127.0.0.1",
        now: Date.parse(now),
        apiKeySha256,
      });
      try {
        const port = Number(new URL(preview.origin).port);
        for (const row of rowsOf(setup)) {
          if (row.httpsOnly) continue;
          observed.preview.set(
            row,
            await sendRaw({ http: port, https: port }, row, observed.preview),
          );
        }
      } finally {
        await preview.close();
      }
    }
    expect(await mismatches("preview")).toEqual([]);
  });

  it("(c) the generated out/_worker.js inside workerd (Miniflare) answers every row as expected", async () => {
    await runInWorkerd((setup) => siteOf(setup).outDir, observed.workerd);
    expect(await mismatches("workerd")).toEqual([]);
  });

  it("(d) the same out/_worker.js in workerd, the documents in an R2 bucket as upload-list puts them, answers every row as expected", async () => {
    await runOnBucket(observed.bucket);
    expect(await mismatches("bucket")).toEqual([]);
  }, 300_000);

  it("(c′) the worker the compiled CLI writes (tsc's output, what users deploy) answers exactly the same", async () => {
    const outDirs = {} as Record<SiteName, string>;
    for (const variant of ["keyed", "openPi", "ownHost"] as const) {
      outDirs[variant] = await mkdtemp(join(tmpdir(), "spi-edge-cli-"));
      const dataDir = built[variant].dataDir;
      await run(
        process.execPath,
        [CLI, "build", "--data", dataDir, "--out", outDirs[variant], "--now", BUILD_NOW, "--quiet"],
        {
          env: { ...process.env, SPI_API_KEYS: VALID_KEYS.join(",") },
        },
      );
    }
    const fromCli = new Map<MatrixRow, Observed>();
    await runInWorkerd((setup) => outDirs[setupOf(setup).site ?? "keyed"], fromCli);
    const differences = MATRIX.filter(
      (row) => comparable(fromCli.get(row)) !== comparable(observed.workerd.get(row)),
    ).map((row) => row.name);
    expect(fromCli.size).toBe(MATRIX.length);
    expect(differences).toEqual([]);
  });

  it("all three give identical status, headers that matter and bodies on every row", () => {
    const differences: string[] = [];
    for (const row of MATRIX) {
      const direct = observed.direct.get(row);
      for (const way of ["preview", "workerd", "bucket"] as const) {
        if (way === "preview" && row.httpsOnly) continue;
        const other = observed[way].get(row);
        if (way === "workerd" && row.expected.withoutLastModified) continue;
        if (comparable(other) !== comparable(direct)) differences.push(`${row.name}: ${way}`);
      }
    }
    expect(observed.workerd.size).toBe(MATRIX.length);
    expect(observed.bucket.size).toBe(MATRIX.length);
    expect(differences).toEqual([]);
  });
});

/** Status, headers that matter and body; the validators' values differ from way to way. */
function comparable(seen: Observed | undefined): string {
  return JSON.stringify(seen && { ...seen, validators: undefined });
}

/** Every row through its site's _worker.js in workerd, with Cloudflare's asset server behind it. */
async function runInWorkerd(
  outDirOf: (setup: SetupName) => string,
  into: Map<MatrixRow, Observed>,
) {
  await Promise.all(
    setupNames.map(async (setup) => {
      const outDir = outDirOf(setup);
      // The worker runs ahead of the assets, as with run_worker_first / Pages advanced mode.
      const assets = {
        directory: outDir,
        binding: "ASSETS",
        routerConfig: { has_user_worker: true, invoke_user_worker_ahead_of_assets: true },
      };
      await sendRows(new Miniflare({ ...workerOf(setup, outDir), assets }), setup, into);
    }),
  );
}

/**
 * Every row through its site's _worker.js in workerd without assets: the documents in a local
 * R2 bucket bound as DOCUMENTS, filled once per site as upload-list plans a first upload.
 */
async function runOnBucket(into: Map<MatrixRow, Observed>) {
  const siteNames = [...new Set(setupNames.map((setup) => setupOf(setup).site ?? "keyed"))];
  await Promise.all(
    siteNames.map(async (name) => {
      const { outDir } = built[name];
      const r2 = { r2Buckets: ["DOCUMENTS"], r2Persist: await mkdtemp(join(tmpdir(), "spi-r2-")) };
      await uploadInto(await openLocalBucket("DOCUMENTS", { r2Persist: r2.r2Persist }), outDir);
      // One after the other: each instance opens the bucket's stored state.
      for (const setup of setupNames.filter((s) => (setupOf(s).site ?? "keyed") === name)) {
        await sendRows(new Miniflare({ ...workerOf(setup, outDir), ...r2 }), setup, into);
      }
    }),
  );
}

/** The worker of `outDir` with the setup's clock and secret. */
function workerOf(setup: SetupName, outDir: string) {
  const { now, apiKeySha256 } = setupOf(setup);
  const bindings: Record<string, string> = { SPI_FIXED_NOW: now };
  if (apiKeySha256) bindings.API_KEY_SHA256 = apiKeySha256;
  return {
    modules: true,
    scriptPath: join(outDir, WORKER_PATH),
    modulesRoot: outDir,
    compatibilityDate: COMPATIBILITY_DATE,
    bindings,
  };
}

async function sendRows(mf: Miniflare, setup: SetupName, into: Map<MatrixRow, Observed>) {
  try {
    for (const row of rowsOf(setup)) {
      const response = await mf.dispatchFetch(`${row.origin}${row.target}`, {
        method: row.method,
        headers: headersOf(row, into),
        redirect: "manual",
      });
      into.set(row, await observe(response as unknown as Response));
    }
  } finally {
    await mf.dispose();
  }
}

/** A first upload, as upload-list plans it: the documents, then the SI. */
async function uploadInto(bucket: LocalBucket, outDir: string) {
  try {
    const plan = planUpload(await servedDocuments(outDir), undefined);
    expect(plan.deletes).toEqual([]);
    const put = (path: string) =>
      readFile(join(outDir, path)).then((bytes) => bucket.put(path, new Uint8Array(bytes)));
    await Promise.all(plan.documents.map(put));
    await Promise.all(plan.serviceInformation.map(put));
  } finally {
    await bucket.close();
  }
}
