import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEdgeWorker, type EdgeEnv } from "../../src/edge/edgeRules.js";
import { renderNjsModule } from "../../src/nginx/njsModule.js";
import { NGINX_FILES, SEND_FILE } from "../../src/nginx/serverConfig.js";
import { writeNginxFiles } from "../../src/nginx/writeNginxFiles.js";
import { folderAssets } from "../../src/serve/folderAssets.js";
import { runInProcess } from "../cli/runInProcess.js";
import { BUILD_NOW, type BuiltSite, buildTestSite, VALID_KEYS } from "../edge/builtSite.js";
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
} from "../edge/requestMatrix.js";
import { type Ports, sendRaw } from "../edge/sendRaw.js";
import {
  freePort,
  nginxAvailable,
  type RunningNginx,
  selfSignedCertificate,
  startNginx,
} from "./nginxServer.js";

/**
 * The edge request matrix (test/edge/requestMatrix.ts) against a real nginx running the module
 * `spi-static nginx` writes, next to the rule function called directly as the worker runs it:
 * every row must give the same status, headers that matter and body. One nginx, a plain and a
 * TLS server per setup (its clock, its digests, its site).
 */

const setupNames = Object.keys(SETUPS) as SetupName[];
let built: Record<SiteName, BuiltSite>;
let nginx: RunningNginx | undefined;
let work: string;
let cliPort: number;
const run = promisify(execFile);
const CLI = resolve("dist/cli/main.js");
const ports = {} as Record<SetupName, Ports>;
const direct = new Map<MatrixRow, Observed>();
const viaNginx = new Map<MatrixRow, Observed>();

const setupOf = (setup: SetupName): Setup => SETUPS[setup];
const siteOf = (setup: SetupName) => built[setupOf(setup).site ?? "keyed"];

describe.skipIf(!nginxAvailable())("nginx with the njs module spi-static nginx writes", () => {
  beforeAll(async () => {
    built = {
      keyed: await buildTestSite("keyed"),
      openPi: await buildTestSite("openPi"),
      ownHost: await buildTestSite("ownHost"),
    };
    work = await mkdtemp(join(tmpdir(), "spi-nginx-files-"));
    const { cert, key } = await selfSignedCertificate(work);
    const servers: string[] = [];
    for (const setup of setupNames) {
      const { now, apiKeySha256 } = setupOf(setup);
      ports[setup] = { http: await freePort(), https: await freePort() };
      const dir = join(work, setup);
      let digestsFile: string | undefined;
      if (apiKeySha256 !== undefined && setup !== "brokenSecret") {
        digestsFile = join(work, `${setup}.sha256`);
        await writeFile(digestsFile, apiKeySha256);
      }
      await writeNginxFiles({
        outDir: siteOf(setup).outDir,
        dir,
        listen: `127.0.0.1:${ports[setup].http}`,
        serverName: "_",
        digestsFile,
        fixedNow: now,
      });
      if (setup === "brokenSecret") {
        // The command refuses such a digests file (nginxCommand.test.ts); the rules' answer to
        // one is still the worker's: the module is made with it as the worker's secret.
        const module = await renderNjsModule(siteOf(setup).site, {
          root: siteOf(setup).outDir,
          env: { SPI_FIXED_NOW: now, API_KEY_SHA256: apiKeySha256 },
          sendFile: SEND_FILE,
        });
        await writeFile(join(dir, NGINX_FILES.module), module);
      }
      servers.push(
        `include ${join(dir, NGINX_FILES.server)};`,
        // TLS as docs/nginx.md has it: a server of one's own including the API's directives.
        `server {
    listen 127.0.0.1:${ports[setup].https} ssl;
    ssl_certificate ${cert};
    ssl_certificate_key ${key};
    include ${join(dir, NGINX_FILES.api)};
}`,
      );
    }
    // The files the compiled CLI writes (tsc's output, what users run), for the build's setup.
    cliPort = await freePort();
    await run(process.execPath, [
      ...[CLI, "nginx", "--out", built.keyed.outDir, "--dir", join(work, "cli")],
      ...["--listen", `127.0.0.1:${cliPort}`, "--now", BUILD_NOW],
    ]);
    servers.push(`include ${join(work, "cli", NGINX_FILES.server)};`);
    nginx = await startNginx({ httpBody: servers.join("\n"), readyPort: ports.build.http });

    for (const setup of setupNames) {
      const { now, apiKeySha256 } = setupOf(setup);
      const { site, outDir } = siteOf(setup);
      const worker = createEdgeWorker(site);
      const env: EdgeEnv = { ASSETS: folderAssets(outDir), SPI_FIXED_NOW: now };
      if (apiKeySha256) env.API_KEY_SHA256 = apiKeySha256;
      for (const row of MATRIX.filter((r) => r.setup === setup)) {
        const request = new Request(`${row.origin}${row.target}`, {
          method: row.method,
          headers: headersOf(row, direct),
        });
        direct.set(row, await observe(await worker.fetch(request, env)));
        viaNginx.set(row, await sendRaw(ports[setup], row, viaNginx));
      }
    }
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
  });

  it("answers every row of the matrix as the worker's rules do", async () => {
    const differences = MATRIX.flatMap((row) => {
      const ours = comparable(viaNginx.get(row));
      const theirs = comparable(direct.get(row));
      return ours === theirs ? [] : [`${row.name}:\n  nginx  ${ours}\n  worker ${theirs}`];
    });
    expect(viaNginx.size).toBe(MATRIX.length);
    expect(differences).toEqual([]);
    expect(await nginx?.errorLog()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
  });

  it("answers the same from the files the compiled CLI writes", async () => {
    const rows = MATRIX.filter((row) => row.setup === "build" && !row.httpsOnly);
    const fromCli = new Map<MatrixRow, Observed>();
    for (const row of rows) {
      fromCli.set(row, await sendRaw({ http: cliPort, https: cliPort }, row, fromCli));
    }
    const differences = rows.filter(
      (row) => comparable(fromCli.get(row)) !== comparable(direct.get(row)),
    );
    expect(rows.length).toBeGreaterThan(100);
    expect(differences.map((row) => row.name)).toEqual([]);
  });

  it("sends validators the way the output folder's files have them", () => {
    const row = MATRIX.find((r) => r.name === "PI news today");
    const seen = row && viaNginx.get(row);
    expect(seen?.validators.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(seen?.validators.lastModified).toBe(
      direct.get(row as MatrixRow)?.validators.lastModified,
    );
  });

  it("never serves its own files, whatever the path", async () => {
    for (const path of [
      "/spi-static.js",
      "/spi-static.conf",
      "/spi-static-api.conf",
      "/spi-static-site.json",
      `/${work}/build/spi-static.js`,
      "/_spi-static/refused",
      "/_worker.js",
      // The named location nginx sends documents from is no URL.
      `/@${SEND_FILE}`,
      `/${SEND_FILE}/radiodns/spi/3.1/SI.xml`,
    ]) {
      const answer = await fetch(`http://127.0.0.1:${ports.build.http}${path}`);
      expect(answer.status).toBe(404);
      expect(await answer.text()).toContain('code="not-found"');
    }
  });

  it("passes spi-static verify", async () => {
    const result = await runInProcess([
      "verify",
      `http://127.0.0.1:${ports.build.http}`,
      "--key",
      VALID_KEYS[0],
      "--now",
      BUILD_NOW,
    ]);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
  });
});

/** Status, headers that matter and body; the validators' values differ from way to way. */
function comparable(seen: Observed | undefined): string {
  return JSON.stringify(seen && { ...seen, validators: undefined });
}
