import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importToDataFolder } from "../../src/import/importToDataFolder.js";
import { FeedError } from "../../src/import/read/feedError.js";
import { verifySite } from "../../src/verify/verifySite.js";
import { runInProcess } from "../cli/runInProcess.js";

const NS = 'xmlns="http://www.worlddab.org/schemas/spi/31"';
const SI = `<?xml version="1.0" encoding="UTF-8"?>
<serviceInformation ${NS} xml:lang="en" originator="Test Radio"><services>
  <serviceProvider><shortName>Test</shortName><mediumName>Test Radio</mediumName></serviceProvider>
  <service><shortName>One</shortName><mediumName>Radio One</mediumName>
    <genre href="urn:tva:metadata:cs:ContentCS:2011:3.6.1">Pop</genre>
    <bearer id="dab:4e1.4fe1.4e01.0" cost="20" mimeValue="audio/aacp"/>
    <radiodns fqdn="rdns.test.example" serviceIdentifier="one"/></service>
</services></serviceInformation>`;
const NOW = Date.parse("2026-11-23T08:00:00Z");

/** A PI document of `count` hour-long programmes from 00:00 UTC on 2026-11-23. */
function pi(count: number): string {
  const programmes = Array.from(
    { length: count },
    (_, i) =>
      `<programme id="crid://test.example/p/${i}" shortId="0"><mediumName>Show ${i}</mediumName><location><time time="2026-11-23T${String(i).padStart(2, "0")}:00:00Z" duration="PT1H"/></location></programme>`,
  );
  return `<epg ${NS} xml:lang="en"><schedule originator="Test Radio">${programmes.join("")}</schedule></epg>`;
}

/** How the test server answers a path: a body, or a behaviour no honest server has. */
type Answer = "trickle" | "endless" | "declared huge" | "cut" | "dropped" | "slow 404" | string;
const answers = new Map<string, Answer>();
let server: Server;
let origin: string;
const root = await mkdtemp(join(tmpdir(), "spi-import-hostile-"));

beforeAll(async () => {
  server = createServer((request, response) => {
    const answer = answers.get(request.url ?? "") ?? answers.get("*");
    if (answer === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.on("error", () => {});
    if (answer === "slow 404") {
      setTimeout(() => response.writeHead(404).end(), 300);
    } else if (answer === "trickle") {
      response.writeHead(200, { "content-type": "application/xml" });
      const timer = setInterval(() => response.write("<"), 20);
      response.on("close", () => clearInterval(timer));
    } else if (answer === "endless") {
      response.writeHead(200, { "content-type": "application/xml" });
      const chunk = Buffer.alloc(16 * 1024, "a");
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once("drain", pump);
      };
      pump();
    } else if (answer === "declared huge") {
      response.writeHead(200, { "content-type": "application/xml", "content-length": 600e6 });
      response.write("<serviceInformation");
    } else if (answer === "dropped") {
      // The connection drops mid-transfer: fewer bytes than Content-Length promised.
      response.writeHead(200, { "content-type": "application/xml", "content-length": SI.length });
      response.write(SI.slice(0, 100), () => response.socket?.destroy());
    } else if (answer === "cut") {
      const text = SI.slice(0, SI.length / 2);
      response.writeHead(200, { "content-type": "application/xml" });
      response.end(text);
    } else {
      response.writeHead(200, { "content-type": "application/xml" }).end(answer);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

async function written(folder: string): Promise<string[]> {
  return readdir(folder).catch(() => []);
}

describe("import and verify against a hostile or broken server", () => {
  it("gives up on a server that trickles bytes: the timeout bounds the whole request (exit 3, nothing written)", async () => {
    answers.clear();
    answers.set("*", "trickle");
    const started = Date.now();
    const run = await runInProcess(
      ["import", origin, "--time-zone", "UTC", "--data", "trickled", "--timeout", "0.5"],
      root,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toBe(
      `spi-static: GET ${origin}/radiodns/spi/3.1/SI.xml: too slow: the import did not finish within --timeout 0.5 s (it bounds the whole run)\n`,
    );
    expect(await written(join(root, "trickled"))).toEqual([]);

    const report = await verifySite({ baseUrl: origin, now: NOW, timeoutMs: 500 });
    expect(report.ok).toBe(false);
    // The request gets what is left of the run's 500 ms: 499 ms on a loaded machine.
    expect(report.checks[0]?.detail).toMatch(
      /: too slow: no complete answer from .* within (4\d\d|500) ms$/,
    );
  });

  it("stops when --timeout is spent, however many requests each answer in time (exit 3, nothing written)", async () => {
    answers.clear();
    const services = Array.from(
      { length: 20 },
      (_, i) =>
        `<service><shortName>S${i}</shortName><mediumName>Radio ${i}</mediumName><radiodns fqdn="rdns.test.example" serviceIdentifier="s${i}"/></service>`,
    );
    answers.set(
      "/radiodns/spi/3.1/SI.xml",
      SI.replace(/<service>[\s\S]*<\/service>/, services.join("")),
    );
    answers.set("*", "slow 404");
    const started = Date.now();
    const run = await runInProcess(
      [
        "import",
        origin,
        "--time-zone",
        "UTC",
        "--data",
        "slow",
        "--timeout",
        "2",
        "--now",
        "2026-11-23T08:00:00Z",
      ],
      root,
    );
    // 300 requests of 300 ms, 4 at a time, would take 22 s without the run's bound.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(
      /_PI\.xml: too slow: the import did not finish within --timeout 2 s \(it bounds the whole run\)\n$/,
    );
    expect(await written(join(root, "slow"))).toEqual([]);
  });

  it("refuses an answer that says it is larger than any SPI document without reading it", async () => {
    answers.clear();
    answers.set("*", "declared huge");
    const run = await runInProcess(
      ["import", origin, "--time-zone", "UTC", "--data", "huge"],
      root,
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/SI\.xml: too large: .* answers with over 8 MB\n$/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const verify = await runInProcess(["verify", origin], root);
    expect(verify.exitCode).toBe(3);
    expect(verify.stdout).toMatch(/too large: .* answers with over 8 MB/);
  });

  it("stops reading an endless answer at the cap, for import and verify alike", async () => {
    answers.clear();
    answers.set("*", "endless");
    await expect(
      importToDataFolder({
        from: { api: { baseUrl: origin, key: undefined, timeoutMs: 10_000 } },
        dataDir: join(root, "endless"),
        timeZone: "UTC",
        now: NOW,
        force: false,
        limits: { documentBytes: 64 * 1024, feedBytes: 1024 * 1024 },
      }),
    ).rejects.toThrow(/SI\.xml: too large: .* answers with over 65536 bytes$/);
    const report = await verifySite({ baseUrl: origin, now: NOW, maxBytes: 64 * 1024 });
    expect(report.checks[0]?.detail).toMatch(/too large: .* answers with over 65536 bytes$/);
  });

  it("refuses a response cut mid-transfer at where it stops (exit 3, nothing written)", async () => {
    answers.clear();
    answers.set("*", "cut");
    const run = await runInProcess(["import", origin, "--time-zone", "UTC", "--data", "cut"], root);
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(
      new RegExp(
        `^spi-static: ${origin}/radiodns/spi/3\\.1/SI\\.xml:\\d+:\\d+: not well-formed XML: `,
      ),
    );
    expect(await written(join(root, "cut"))).toEqual([]);
  });

  it("refuses an answer whose connection drops before its Content-Length is read (exit 3, nothing written)", async () => {
    answers.clear();
    answers.set("*", "dropped");
    const run = await runInProcess(
      ["import", origin, "--time-zone", "UTC", "--data", "dropped"],
      root,
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(
      new RegExp(`^spi-static: GET ${origin}/radiodns/spi/3\\.1/SI\\.xml: `),
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(await written(join(root, "dropped"))).toEqual([]);
  });

  it("refuses a feed larger than the feed's cap, however small each document", async () => {
    answers.clear();
    answers.set("/radiodns/spi/3.1/SI.xml", SI);
    answers.set("*", pi(10));
    await expect(
      importToDataFolder({
        from: { api: { baseUrl: origin, key: undefined, timeoutMs: 10_000 } },
        dataDir: join(root, "feedcap"),
        timeZone: "UTC",
        now: NOW,
        force: false,
        limits: { documentBytes: 64 * 1024, feedBytes: 8 * 1024 },
      }),
    ).rejects.toThrow(/_PI\.xml: too large: the feed's documents come to over 8192 bytes with it/);
    expect(await written(join(root, "feedcap"))).toEqual([]);
  });
});

describe("import from a folder with links, and into one", () => {
  it("notes a special file in the feed folder, and never waits on it", async () => {
    const feed = join(root, "fifo-feed");
    await mkdir(join(feed, "id/rdns.test.example/one"), { recursive: true });
    await writeFile(join(feed, "SI.xml"), SI);
    await writeFile(join(feed, "id/rdns.test.example/one/20261123_PI.xml"), pi(3));
    execFileSync("mkfifo", [join(feed, "id/rdns.test.example/one/20261124_PI.xml")]);
    const result = await importToDataFolder({
      from: { files: [feed] },
      dataDir: join(root, "fifo-data"),
      timeZone: "UTC",
      now: NOW,
      force: false,
    });
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContain(
      `${join(feed, "id/rdns.test.example/one/20261124_PI.xml")}: is not a regular file: not read (a feed's files are read only as regular files in its folder)`,
    );
    expect(result.programmes).toBe(3);
  });

  it("notes a PI that is a link (not read), and refuses a document over the cap", async () => {
    const feed = join(root, "linked-feed");
    await mkdir(join(feed, "id/rdns.test.example/one"), { recursive: true });
    await writeFile(join(feed, "SI.xml"), SI);
    await writeFile(join(root, "elsewhere_PI.xml"), pi(3));
    await symlink(
      join(root, "elsewhere_PI.xml"),
      join(feed, "id/rdns.test.example/one/20261123_PI.xml"),
    );
    const result = await importToDataFolder({
      from: { files: [feed] },
      dataDir: join(root, "linked-data"),
      timeZone: "UTC",
      now: NOW,
      force: false,
    });
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContain(
      `${join(feed, "id/rdns.test.example/one/20261123_PI.xml")}: is a link: not read (a feed's files are read only as regular files in its folder)`,
    );
    expect(result.programmes).toBe(0);

    await writeFile(join(feed, "big_PI.xml"), pi(20));
    await expect(
      importToDataFolder({
        from: { files: [feed] },
        dataDir: join(root, "capped-data"),
        timeZone: "UTC",
        now: NOW,
        force: false,
        limits: { documentBytes: 1024, feedBytes: 1024 * 1024 },
      }),
    ).rejects.toThrow(/big_PI\.xml: too large: over 1024 bytes, more than any SPI document/);
  });

  it("never writes through a link in the data folder, even with --force (exit 3, nothing written)", async () => {
    const feed = join(root, "plain-feed");
    await mkdir(feed, { recursive: true });
    await writeFile(join(feed, "SI.xml"), SI);
    await writeFile(join(feed, "20261123_PI.xml"), pi(3));
    const data = join(root, "target");
    await mkdir(join(data, "services"), { recursive: true });
    const outside = join(root, "outside.yaml");
    await writeFile(outside, "precious: true\n");
    await symlink(outside, join(data, "services/one.yaml"));
    const run = await runInProcess(
      ["import", feed, "--time-zone", "UTC", "--data", data, "--force"],
      root,
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain(
      `${join(data, "services/one.yaml")}: is a link; import writes only regular files and folders inside the data folder and never through a link: nothing was written`,
    );
    expect(await readFile(outside, "utf8")).toBe("precious: true\n");
    expect((await written(data)).sort()).toEqual(["services"]);
  });
});

it("FeedError keeps the notes gathered before it", () => {
  const error = new FeedError("stopped", [{ origin: "a.xml:1:1", message: "why" }]);
  expect(error.describe()).toEqual(["a.xml:1:1: why", "spi-static: stopped"]);
});

describe("a live API that still publishes RadioEPG 1.0 (EPG 1.x)", () => {
  it("is read by radiodns/epg/XSI.xml and its PI by bearer path, with a note", async () => {
    const v1 = (name: string) => `http://www.worlddab.org/schemas/${name}/14`;
    answers.clear();
    answers.set(
      "/radiodns/epg/XSI.xml",
      `<serviceInformation xmlns="${v1("epgSI")}" xmlns:epg="${v1("epgDataTypes")}" xml:lang="en" originator="Test Radio"><ensemble id="e1.4fe1"><service><serviceID id="e1.4fe1.4e01.0"/><epg:shortName>One</epg:shortName><epg:mediumName>Radio One</epg:mediumName><epg:genre href="urn:tva:metadata:cs:ContentCS:2011:3.6.1"><epg:name>Pop</epg:name></epg:genre></service></ensemble></serviceInformation>`,
    );
    answers.set(
      "/radiodns/epg/dab/4e1/4fe1/4e01/0/20261123_PI.xml",
      pi(3)
        .replace(`xmlns="http://www.worlddab.org/schemas/spi/31"`, `xmlns="${v1("epgSchedule")}"`)
        .replaceAll("<mediumName>", `<mediumName xmlns="${v1("epgDataTypes")}">`),
    );
    const result = await importToDataFolder({
      from: { api: { baseUrl: origin, key: undefined, timeoutMs: 5_000 } },
      dataDir: join(root, "epg1-live"),
      timeZone: "UTC",
      now: NOW,
      force: false,
    });
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContain(
      `${origin}/radiodns/epg/XSI.xml: no SPI 3.1 SI (${origin}/radiodns/spi/3.1/SI.xml: 404): this RadioEPG 1.0 (EPG 1.x) SI is imported, and PI is asked for by bearer path`,
    );
    expect(result.services).toBe(1);
    expect(result.programmes).toBe(3);
  });

  it("never puts a feed's malformed radiodns values into a request path", async () => {
    answers.clear();
    answers.set(
      "/radiodns/spi/3.1/SI.xml",
      SI.replace('serviceIdentifier="one"', 'serviceIdentifier="../../admin"'),
    );
    const requested: string[] = [];
    const record = (request: { url?: string }) => requested.push(request.url ?? "");
    server.on("request", record);
    const result = await importToDataFolder({
      from: { api: { baseUrl: origin, key: undefined, timeoutMs: 5_000 } },
      dataDir: join(root, "no-traversal"),
      timeZone: "UTC",
      now: NOW,
      force: false,
    });
    server.off("request", record);
    expect(requested).toEqual(["/radiodns/spi/3.1/SI.xml"]);
    expect(result.notes.map((n) => n.message)).toContain(
      'radiodns fqdn="rdns.test.example" serviceIdentifier="../../admin" is no PI path: its PI is not asked for',
    );
  });
});
