import { execFile } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TZDate } from "@date-fns/tz";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { type PreviewServer, startPreviewServer } from "../../src/serve/previewServer.js";
import { programmeInformationPath } from "../../src/site/siteContract.js";
import { type VerifyReport, VerifyUsageError, verifySite } from "../../src/verify/verifySite.js";

const DATA_DIR = new URL("../../data", import.meta.url).pathname;
const CLI = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const NOW = Date.parse("2026-11-23T08:00:00Z");
const KEY = "verify-test-key-0001";

let outDir: string;
const servers: { close(): Promise<void> }[] = [];

async function preview(
  options: { now?: number; outDir?: string; apiKeySha256?: string } = {},
): Promise<PreviewServer> {
  const server = await startPreviewServer({
    outDir: options.outDir ?? outDir,
    port: 0,
    host: "127.0.0.1",
    now: options.now ?? NOW,
    apiKeySha256: options.apiKeySha256,
  });
  servers.push(server);
  return server;
}

/** What the README warns against: a plain static server, which knows nothing of keys. */
async function plainStaticServer(): Promise<string> {
  const server: Server = createServer((req, res) => {
    const path = join(outDir, decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
    readFile(path).then(
      (bytes) => res.writeHead(200, { "Content-Type": "application/xml" }).end(bytes),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const failed = (report: VerifyReport) => report.checks.filter((c) => !c.ok).map((c) => c.name);

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-verify-"));
  await buildSite({ dataDir: DATA_DIR, outDir, now: NOW, keys: { keysList: KEY } });
});

afterAll(async () => {
  for (const server of servers) await server.close();
});

describe("verify against the preview server", () => {
  it("passes every check with a valid key", async () => {
    const { origin } = await preview();
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c) => c.skipped)).toEqual([]);
    const names = report.checks.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "SI without a key",
        "SI with an invalid key",
        "SI with the key",
        "keyed SI unreachable without the key",
        "PI without a key (bern)",
        "PI with an invalid key (bern)",
        "PI for news, today (20261123)",
        "PI of an unknown service",
        "PI 10 days ago",
        "PI in 10 days",
        "PI with a 7-digit date",
        "PI of 13/32",
        "PI with a query string",
        "PI by bearer path, today (20261123)",
        "SI revalidation (If-None-Match)",
        "keyed SI revalidation (If-None-Match)",
        "PI revalidation (If-None-Match, bern)",
        "schema validity (spi_31.xsd)",
        "logos named by the open SI",
        "fresh: the window's far end (today + 7), at most 1 night late",
      ]),
    );
    expect(report.checks.find((c) => c.name.startsWith("fresh:"))?.detail).toBe(
      "on time: the window's far end (20261130) is there for every service; newest document made 2026-11-23T08:00:00Z, 0 days ago",
    );
    // The example's six owners (provider, group, four services), five sizes each, from the preview.
    expect(report.checks.find((c) => c.name === "logos named by the open SI")?.detail).toBe(
      "30 on this site: 200, image type and pixel size as SI says, public and cached for a day or more",
    );
    expect(report.checks.find((c) => c.name.startsWith("PI revalidation"))?.detail).toMatch(
      /^304 for If-None-Match "[^"]+", 401 without the key$/,
    );
    expect(report.checks.find((c) => c.name.startsWith("PI by bearer"))?.detail).toBe(
      "8 bearer paths, each the service's id/ document; an unknown bearer 404",
    );
    expect(names.filter((n) => n.startsWith("PI for "))).toHaveLength(5);
    // Two SI, today's PI of each service (5) and at the window's far end (5).
    expect(report.checks.at(-1)?.detail).toBe("all 12 documents fetched are valid");
  });

  it("fails without a key: the checks that need one are skipped, which is not a pass", async () => {
    const { origin } = await preview();
    const report = await verifySite({ baseUrl: origin, now: NOW });
    expect(report.ok).toBe(false);
    const skipped = report.checks.filter((c) => c.skipped);
    expect(skipped.map((c) => c.name)).toEqual([
      "SI with the key",
      "PI per service for today, 404 and 400 answers",
      "PI by bearer path, freshness of the window's far end",
    ]);
    expect(failed(report)).toEqual(skipped.map((c) => c.name));
    expect(skipped[0]?.detail).toBe(
      "needs a key (--key, --keys-file or SPI_VERIFY_KEY); --without-key if that is expected",
    );
  });

  it("passes without a key when told the keyed checks are expected to be skipped", async () => {
    const { origin } = await preview();
    const report = await verifySite({ baseUrl: origin, now: NOW, withoutKey: true });
    expect(report.ok).toBe(true);
    expect(report.checks.filter((c) => c.skipped)).toHaveLength(3);
  });

  it("fails when a bearer path answers with another service's PI", async () => {
    const swappedOut = await mkdtemp(join(tmpdir(), "spi-verify-bearer-"));
    await buildSite({ dataDir: DATA_DIR, outDir: swappedOut, now: NOW, keys: { keysList: KEY } });
    const worker = join(swappedOut, "_worker.js");
    const text = await readFile(worker, "utf8");
    const swapped = text.replace(
      '"fm/4e1/4e02/10170": "rdns.aareradio.example/pop"',
      '"fm/4e1/4e02/10170": "rdns.aareradio.example/news"',
    );
    expect(swapped).not.toBe(text);
    await writeFile(worker, swapped);
    const { origin } = await preview({ outDir: swappedOut });
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(failed(report)).toEqual(["PI by bearer path, today (20261123)"]);
    expect(report.checks.find((c) => !c.ok)?.detail).toBe(
      "/radiodns/spi/3.1/fm/4e1/4e02/10170/20261123_PI.xml differs from the id/ path",
    );
  });

  it("checks each service's PI under its own FQDN and serviceIdentifier (test/fixtures/own-hosts)", async () => {
    const ownOut = await mkdtemp(join(tmpdir(), "spi-verify-own-hosts-"));
    const dataDir = "test/fixtures/own-hosts";
    await buildSite({ dataDir, outDir: ownOut, now: NOW, keys: { keysList: KEY } });
    const { origin } = await preview({ outDir: ownOut });
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        "PI for rdns.test.example/one, today (20261123)",
        "PI for two.test.example/one, today (20261123)",
        "PI for two, today (20261123)",
        "PI by bearer path, today (20261123)",
      ]),
    );
    // Gone from its own FQDN, the service's PI fails there, whatever the provider's host holds.
    await rm(join(ownOut, programmeInformationPath("two.test.example", "two", "2026-11-23")));
    const broken = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(failed(broken)).toEqual([
      "PI for two, today (20261123)",
      "PI by bearer path, today (20261123)",
    ]);
  });

  it("with --open-pi, checks PI without a key, bearer paths included", async () => {
    const openData = await mkdtemp(join(tmpdir(), "spi-verify-open-data-"));
    await cp(DATA_DIR, openData, { recursive: true });
    const provider = join(openData, "provider.yaml");
    const text = await readFile(provider, "utf8");
    await writeFile(provider, text.replace(/^discovery:.*\n/m, "$&  pi: open\n"));
    const openOut = await mkdtemp(join(tmpdir(), "spi-verify-open-"));
    await buildSite({ dataDir: openData, outDir: openOut, now: NOW, keys: { keysList: KEY } });
    const { origin } = await preview({ outDir: openOut });
    const report = await verifySite({ baseUrl: origin, now: NOW, withoutKey: true, openPi: true });
    expect(failed(report)).toEqual([]);
    const names = report.checks.filter((c) => !c.skipped).map((c) => c.name);
    expect(names).toContain("PI without a key, open PI (bern)");
    expect(names).toContain("PI by bearer path, today (20261123)");
    // The keyed site, checked as if open, fails: PI there needs a key.
    const keyed = await verifySite({
      baseUrl: (await preview()).origin,
      now: NOW,
      withoutKey: true,
      openPi: true,
    });
    expect(failed(keyed)).toEqual([
      "PI without a key, open PI (bern)",
      "PI by bearer path, today (20261123)",
      "fresh: the window's far end (today + 7), at most 1 night late",
    ]);
  });

  it("fails a site built two or six nights ago, with the nights in the message; warns below --stale-after", async () => {
    const DAY = 86_400_000;
    const freshness = (report: VerifyReport) =>
      report.checks.find((c) => c.name.startsWith("fresh:"));
    // One night late: the whole window is still there, and no client can tell (docs/commands.md).
    const builtAt = async (nightsAgo: number) => {
      const staleOut = await mkdtemp(join(tmpdir(), "spi-verify-stale-"));
      const now = NOW - nightsAgo * DAY;
      await buildSite({ dataDir: DATA_DIR, outDir: staleOut, now, keys: { keysList: KEY } });
      return (await preview({ outDir: staleOut })).origin;
    };
    const oneNight = await verifySite({ baseUrl: await builtAt(1), key: KEY, now: NOW });
    expect(failed(oneNight)).toEqual([]);

    const twoNights = await builtAt(2);
    const late = await verifySite({ baseUrl: twoNights, key: KEY, now: NOW });
    expect(failed(late)).toEqual(["fresh: the window's far end (today + 7), at most 1 night late"]);
    expect(freshness(late)?.detail).toBe(
      "2 nights late: the PI of 5 services, e.g. bern ends 1 day before the window's far end (20261130, today + 7); newest document made 2026-11-21T08:00:00Z, 2 days ago",
    );
    const tolerant = await verifySite({ baseUrl: twoNights, key: KEY, now: NOW, staleAfter: 3 });
    expect(tolerant.ok).toBe(true);
    expect(freshness(tolerant)).toMatchObject({ ok: true, warning: true });
    expect(freshness(tolerant)?.detail).toMatch(/^2 nights late: /);

    const sixNights = await verifySite({ baseUrl: await builtAt(6), key: KEY, now: NOW });
    expect(failed(sixNights)).toEqual([
      "fresh: the window's far end (today + 7), at most 1 night late",
    ]);
    expect(freshness(sixNights)?.detail).toMatch(/^6 nights late: .* ends 5 days before /);
  });

  it.for(["Pacific/Auckland", "Europe/Zurich", "America/Los_Angeles"])(
    "passes a site built every night at local 00:30 at any hour of the day, with no warning: %s",
    { timeout: 180_000 },
    async (zone) => {
      const freshness = (report: VerifyReport) =>
        report.checks.find((c) => c.name.startsWith("fresh:"));
      /** 2026-11-23 (+ `days`) at `hour`:`minute` in `zone`. */
      const local = (days: number, hour: number, minute: number) =>
        new TZDate(2026, 10, 23 + days, hour, minute, 0, zone).getTime();
      const dataDir = await mkdtemp(join(tmpdir(), "spi-verify-zone-data-"));
      await cp(DATA_DIR, dataDir, { recursive: true });
      const provider = join(dataDir, "provider.yaml");
      const text = await readFile(provider, "utf8");
      await writeFile(provider, text.replace(/^timeZone: .*$/m, `timeZone: ${zone}`));
      // Two nights into one folder, as a nightly does: the far end was made the night before.
      const zoneOut = await mkdtemp(join(tmpdir(), "spi-verify-zone-"));
      for (const night of [-1, 0]) {
        const now = local(night, 0, 30);
        await buildSite({ dataDir, outDir: zoneOut, now, keys: { keysList: KEY } });
      }
      // From just after tonight's build to just before tomorrow night's.
      for (const [days, hour, minute] of [
        [0, 0, 31],
        [0, 12, 0],
        [0, 23, 59],
        [1, 0, 29],
      ] as const) {
        const now = local(days, hour, minute);
        const { origin } = await preview({ outDir: zoneOut, now });
        const report = await verifySite({ baseUrl: origin, key: KEY, now });
        const at = `${zone} ${new Date(now).toISOString()}`;
        expect(
          report.checks.filter((c) => !c.ok),
          at,
        ).toEqual([]);
        expect(freshness(report)?.warning, at).toBeUndefined();
        expect(freshness(report)?.detail, at).toMatch(/^on time: /);
      }
    },
  );

  it("fails when a logo's file is not the pixel size SI says", async () => {
    const logoOut = await mkdtemp(join(tmpdir(), "spi-verify-logo-"));
    await buildSite({ dataDir: DATA_DIR, outDir: logoOut, now: NOW, keys: { keysList: KEY } });
    const folder = join(logoOut, "logos/services/pop");
    const [name = ""] = (await readdir(folder)).filter((n) => n.startsWith("128x128-"));
    const small = await sharp({
      create: { width: 64, height: 64, channels: 4, background: "#ff0000" },
    })
      .png()
      .toBuffer();
    await writeFile(join(folder, name), small);
    const { origin } = await preview({ outDir: logoOut });
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(failed(report)).toEqual(["logos named by the open SI"]);
    expect(report.checks.find((c) => !c.ok)?.detail).toBe(
      `64x64 pixels, SI says 128x128 — GET /logos/services/pop/${name}`,
    );
  });

  it("does not fetch logos on other hosts, and says how many", async () => {
    const externalOut = await mkdtemp(join(tmpdir(), "spi-verify-external-"));
    const dataDir = "test/fixtures/own-hosts";
    await buildSite({ dataDir, outDir: externalOut, now: NOW, keys: { keysList: KEY } });
    const { origin } = await preview({ outDir: externalOut });
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(report.checks.find((c) => c.name === "logos named by the open SI")).toEqual({
      name: "logos named by the open SI",
      ok: true,
      detail: "none on this site; 20 on other hosts not fetched",
    });
    const si = await readFile(join(externalOut, "radiodns/spi/3.1/SI.xml"), "utf8");
    const urls = new Set(
      [...si.matchAll(/<multimedia [^>]*url="https:\/\/img\.test\.example\/([^"]+)"/g)].map(
        (m) => m[1],
      ),
    );
    expect(urls.size).toBe(20);
  });

  it("fails with a key the site does not accept", async () => {
    const { origin } = await preview();
    const report = await verifySite({ baseUrl: origin, key: "not-the-key", now: NOW });
    expect(report.ok).toBe(false);
    expect(failed(report)).toContain("SI with the key");
    expect(failed(report)).toContain("PI for news, today (20261123)");
  });

  it("says so when the site's API_KEY_SHA256 secret holds no valid digest (a key pasted in plain)", async () => {
    const { origin } = await preview({ apiKeySha256: KEY });
    for (const key of [KEY, undefined]) {
      const report = await verifySite({ baseUrl: origin, key, now: NOW });
      const check = report.checks.find((c) => c.name === "key configuration (API_KEY_SHA256)");
      expect(check?.ok).toBe(false);
      expect(check?.detail).toContain("the secret holds no valid SHA-256 digest, so no key works");
      expect(check?.detail).toContain("entry 1 of API_KEY_SHA256 is not a SHA-256 digest");
      expect(check?.detail).not.toContain(KEY);
    }
  });

  it("fails when the site's clock disagrees, so today's PI is outside its window", async () => {
    const { origin } = await preview({ now: NOW + 30 * 86_400_000 });
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(failed(report)).toContain("PI for pop, today (20261123)");
  });

  it("fails when a published document is not schema-valid", async () => {
    const brokenOut = await mkdtemp(join(tmpdir(), "spi-verify-broken-"));
    await buildSite({ dataDir: DATA_DIR, outDir: brokenOut, now: NOW, keys: { keysList: KEY } });
    const path = programmeInformationPath("rdns.aareradio.example", "klassik", "2026-11-23");
    await writeFile(join(brokenOut, path), "<epg><schedule/></epg>\n");
    const { origin } = await preview({ outDir: brokenOut });
    const report = await verifySite({ baseUrl: origin, key: KEY, now: NOW });
    expect(failed(report)).toEqual(["schema validity (spi_31.xsd)"]);
    expect(report.checks.at(-1)?.detail).toContain("PI for klassik");
  });
});

describe("verify of revalidation (ETag, If-None-Match, 304)", () => {
  /**
   * A cache in front of the rules that answers any If-None-Match with 304 itself, before the
   * rules see the request: it would confirm a keyed document's ETag to anyone without a key.
   */
  async function eagerCache(origin: string): Promise<string> {
    const server: Server = createServer((req, res) => {
      const etag = req.headers["if-none-match"];
      if (etag) {
        res.writeHead(304, { ETag: etag, "Content-Type": "application/xml" }).end();
        return;
      }
      const headers: Record<string, string> = {};
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      fetch(`${origin}${req.url}`, { headers }).then(async (answer) => {
        res.writeHead(answer.status, Object.fromEntries(answer.headers));
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("fails when a 304 answers an ETag without the key check", async () => {
    const report = await verifySite({
      baseUrl: await eagerCache((await preview()).origin),
      key: KEY,
      now: NOW,
    });
    expect(failed(report)).toEqual(
      expect.arrayContaining(["PI revalidation (If-None-Match, bern)"]),
    );
    expect(report.checks.find((c) => c.name.startsWith("PI revalidation"))?.detail).toMatch(
      /without a key: status 304, expected 401/,
    );
    expect(
      report.checks.find((c) => c.name === "keyed SI revalidation (If-None-Match)")?.detail,
    ).toMatch(/without a key: status 304, expected 200/);
  });

  it("fails when the site sends no ETag, so clients download every document again", async () => {
    const report = await verifySite({ baseUrl: await plainStaticServer(), key: KEY, now: NOW });
    expect(report.checks.find((c) => c.name === "SI revalidation (If-None-Match)")).toEqual({
      name: "SI revalidation (If-None-Match)",
      ok: false,
      detail: "no ETag on GET /radiodns/spi/3.1/SI.xml: clients cannot revalidate",
    });
  });
});

describe("verify of caching and CORS", () => {
  /** The rules' answers with the headers of an older spi-static: nothing storable, no CORS. */
  async function noStoreFront(origin: string): Promise<string> {
    const server: Server = createServer((req, res) => {
      const headers: Record<string, string> = {};
      for (const name of ["authorization", "if-none-match"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      fetch(`${origin}${req.url}`, { headers }).then(async (answer) => {
        const sent = Object.fromEntries(answer.headers);
        delete sent["access-control-allow-origin"];
        sent["cache-control"] = "private, no-store";
        res.writeHead(answer.status, sent);
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("fails a site whose documents no radio may store and no browser may read", async () => {
    const report = await verifySite({
      baseUrl: await noStoreFront((await preview()).origin),
      key: KEY,
      now: NOW,
    });
    expect(failed(report)).toEqual(
      expect.arrayContaining([
        "SI without a key",
        "SI with the key",
        "PI for bern, today (20261123)",
      ]),
    );
    const detail = (name: string) => report.checks.find((c) => c.name === name)?.detail;
    expect(detail("SI without a key")).toMatch(
      /cacheable by radios and CDNs.*Access-Control-Allow-Origin/,
    );
    expect(detail("PI for bern, today (20261123)")).toMatch(/forbids the radio's own cache/);
    expect(detail("logos named by the open SI")).toMatch(
      /^Cache-Control "private, no-store": a logo should be public with a max-age of a day or more — GET \/logos\//,
    );
  });
});

describe("verify against a plain static server", () => {
  it("finds the keyed SI exposed and the key checks missing", async () => {
    const report = await verifySite({ baseUrl: await plainStaticServer(), key: KEY, now: NOW });
    expect(report.ok).toBe(false);
    expect(failed(report)).toEqual(
      expect.arrayContaining([
        "SI with an invalid key",
        "SI with the key",
        "keyed SI unreachable without the key",
        "PI without a key (bern)",
        "PI of an unknown service",
      ]),
    );
    const leak = report.checks.find((c) => c.name === "keyed SI unreachable without the key");
    expect(leak?.detail).toContain("/_keyed/radiodns/spi/3.1/SI.xml");
  });
});

describe("verify's own rules", () => {
  it("refuses to send a key in clear text to another host", async () => {
    await expect(
      verifySite({ baseUrl: "http://spi.example.org", key: KEY, now: NOW }),
    ).rejects.toThrow(VerifyUsageError);
  });

  it("reports an unreachable site as one failed check, and no document as no schema pass", async () => {
    const report = await verifySite({ baseUrl: "http://127.0.0.1:9", now: NOW, timeoutMs: 2000 });
    expect(report.ok).toBe(false);
    expect(report.checks).toEqual([
      {
        name: "site reachable",
        ok: false,
        detail: expect.stringMatching(/^GET \/radiodns\/spi\/3\.1\/SI\.xml: .*ECONNREFUSED/),
      },
    ]);
  });

  it("exits 0 when every check passes and 3 when one fails, as the last step of a nightly job", async () => {
    const { origin } = await preview();
    const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          [CLI, "verify", origin, ...args],
          { env: { ...process.env, ...env } },
          (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
        );
      });
    const ok = await run(["--now", "2026-11-23T08:00:00Z", "--json"], { SPI_VERIFY_KEY: KEY });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, baseUrl: origin });
    const bad = await run(["--now", "2026-11-23T08:00:00Z", "--key", "wrong"]);
    expect(bad.code).toBe(3);
    expect(bad.stdout).toMatch(/^✗ SI with the key: status 403, expected 200/m);
  });
});
