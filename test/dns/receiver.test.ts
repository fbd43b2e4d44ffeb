import { Resolver } from "node:dns/promises";
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/runCli.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";
import { freePort, startNsd, zone } from "./nsdServer.js";
import { type Network, RadioDnsClient } from "./radiodnsClient.js";
import { serveBehindTls } from "./servedSite.js";

/**
 * A radio finds and shows the guide of a project as `spi-static` leaves it by default — the
 * example data and a fresh `init` project, neither with its discovery settings edited: built,
 * `spi-static dns`'s records served by NSD (with the CNAMEs RadioDNS would hold), `spi-static
 * serve` behind the SRV records' host and ports (80 for `_radioepg`, 443 through a TLS front for
 * `_radiospi`; the test's network takes those ports to the loopback ports they listen on). The
 * client (radiodnsClient.ts) is written from the published client behaviour; the keyless one
 * behaves as the open-source clients in use do: `_radioepg` only, plain HTTP, no key.
 */

const KEY = "receiver-key-00000001";
const DAY = "20261123";

interface World {
  outDir: string;
  fqdn: string;
  resolver: Resolver;
  network: Network;
  /** The ports the clients asked the network for, as the SRV records gave them. */
  dialled: number[];
  certificate: string;
  stop(): Promise<void>;
}

const worlds: World[] = [];
afterAll(async () => {
  for (const world of worlds) await world.stop();
});

async function startWorld(name: string, project: (root: string) => Promise<void>) {
  const root = await mkdtemp(join(tmpdir(), `spi-receiver-${name}-`));
  await project(root);
  const dataDir = join(root, "data");
  const outDir = join(root, "out");
  const build = await runCli(
    ["build", "--data", dataDir, "--out", outDir, "--now", BUILD_NOW, "--quiet"],
    root,
    { SPI_API_KEYS: KEY },
  );
  expect(build.stderr).toBe("");
  expect(build.code).toBe(0);
  const dns = await runCli(["dns", "--data", dataDir, "--json"], root);
  expect(dns.code).toBe(0);
  const records = JSON.parse(dns.stdout) as {
    fqdn: string;
    srv: { name: string; port: number; target: string; priority: number; weight: number }[];
    lookupNames: { name: string; target: string }[];
  };
  const { fqdn } = records;
  const parent = fqdn.slice(fqdn.indexOf(".") + 1);
  const hosts = new Set(records.srv.map((r) => r.target));
  const nsd = await startNsd(root, {
    [parent]: zone(
      parent,
      [
        ...records.srv.map(
          (r) => `${r.name}. IN SRV ${r.priority} ${r.weight} ${r.port} ${r.target}.`,
        ),
        ...[...hosts].map((host) => `${host}. IN A 127.0.0.1`),
      ],
      [],
    ),
    "radiodns.org": zone(
      "radiodns.org",
      records.lookupNames.map((l) => `${l.name}. IN CNAME ${l.target}.`),
    ),
  });

  const servePort = await freePort();
  const tlsPort = await freePort();
  const [host = ""] = hosts;
  // The TLS front passes each request to the preview as a CDN passes it to its origin.
  const site = await serveBehindTls({ root, outDir, host, servePort, tlsPort, originHost: true });

  const resolver = new Resolver();
  resolver.setServers([`127.0.0.1:${nsd.port}`]);
  const dialled: number[] = [];
  const routes = new Map([
    [443, tlsPort],
    [80, servePort],
  ]);
  const world: World = {
    outDir,
    fqdn,
    resolver,
    dialled,
    certificate: site.certificate,
    network: (address, port) => {
      dialled.push(port);
      const to = routes.get(port);
      if (address !== "127.0.0.1" || to === undefined) {
        throw new Error(`nothing listens at ${address}:${port}`);
      }
      return { host: "127.0.0.1", port: to };
    },
    stop: async () => {
      await Promise.all([nsd.stop(), site.stop()]);
      await rm(root, { recursive: true, force: true });
    },
  };
  worlds.push(world);
  return world;
}

const client = (world: World, key?: string) => {
  let now = Date.parse(BUILD_NOW);
  const radio = new RadioDnsClient({
    resolver: world.resolver,
    network: world.network,
    ca: world.certificate,
    now: () => now,
    ...(key && { key }),
  });
  return { radio, later: (seconds: number) => (now += seconds * 1000) };
};

/** The programmes of a published PI file as the client lists them. */
async function published(world: World, serviceIdentifier: string): Promise<string[]> {
  const path = `radiodns/spi/3.1/id/${world.fqdn}/${serviceIdentifier}/${DAY}_PI.xml`;
  const text = await readFile(join(world.outDir, path), "utf8");
  return [...text.matchAll(/<programme [\s\S]*?<\/programme>/g)].map(
    ([p]) => `${/<time time="([^"]+)"/.exec(p)?.[1]} ${/<mediumName[^>]*>([^<]*)</.exec(p)?.[1]}`,
  );
}

describe("a receiver finds and shows the guide of a project left at its defaults", () => {
  let example: World;
  let fresh: World;

  beforeAll(async () => {
    example = await startWorld("example", (root) =>
      cp(DATA_DIR, join(root, "data"), { recursive: true }),
    );
    fresh = await startWorld("init", async (root) => {
      await mkdir(root, { recursive: true });
      const init = await runCli(["init"], root);
      expect(init.code).toBe(0);
    });
  });

  it("example, a radio with a key: DAB news over _radiospi (HTTPS, port 443), today's guide by id and by bearer", async () => {
    const { radio } = client(example, KEY);
    const guide = await radio.guide("dab:4e1.4fe1.4e01.0", DAY);
    expect(guide.discovered).toEqual({
      fqdn: "rdns.aareradio.example",
      application: "radiospi",
      target: "spi.aareradio.example",
      port: 443,
    });
    expect(guide.service.serviceIdentifier).toBe("news");
    expect(guide.byId.status).toBe(200);
    expect(guide.byId.programmes).toEqual(await published(example, "news"));
    expect(guide.byId.programmes.length).toBeGreaterThan(3);
    expect(guide.byBearer.body).toBe(guide.byId.body);
    expect(example.dialled).toContain(443);
  });

  it("example, a keyless radio as the clients in use: FM by ISO country over _radioepg finds the service, PI answers 401", async () => {
    const { radio, later } = client(example);
    const guide = await radio.guide("fm:ch.4e02.10170", DAY);
    expect(guide.discovered.application).toBe("radioepg");
    expect(guide.discovered.port).toBe(80);
    expect(guide.service.serviceIdentifier).toBe("pop");
    expect(guide.service.names).toContain("Aare Pop");
    // TS 102 818 §10.5.5: keyed PI may answer a request without client identification so.
    expect([guide.byId.status, guide.byBearer.status]).toEqual([401, 401]);
    // The open SI is public with a max-age: within it the radio asks nobody.
    const asked = radio.stats.requests;
    await radio.guide("fm:ch.4e02.10170", DAY);
    expect(radio.stats.fromCache).toBe(1);
    later(3601);
    await radio.guide("fm:ch.4e02.10170", DAY);
    // Stale: revalidated with its ETag, 304, the body kept.
    expect(radio.stats.notModified).toBeGreaterThan(0);
    expect(radio.stats.requests).toBeGreaterThan(asked);
  });

  it("example, with a key: a second look revalidates the private documents by ETag (304) instead of downloading them", async () => {
    const { radio } = client(example, KEY);
    const first = await radio.guide("dab:4e1.4fe1.4e01.0", DAY);
    const before = { ...radio.stats };
    const again = await radio.guide("dab:4e1.4fe1.4e01.0", DAY);
    expect(again.byId.programmes).toEqual(first.byId.programmes);
    // SI, PI by id and PI by bearer: each asked again and answered 304.
    expect(radio.stats.notModified - before.notModified).toBe(3);
  });

  it("a fresh init project: the radio with a key shows its guide; a keyless one still finds its name", async () => {
    const keyed = await client(fresh, KEY).radio.guide("fm:ce1.c123.09580", DAY);
    expect(keyed.discovered.application).toBe("radiospi");
    expect(keyed.service.serviceIdentifier).toBe("main");
    expect(keyed.byId.status).toBe(200);
    expect(keyed.byId.programmes).toEqual(await published(fresh, "main"));
    expect(keyed.byId.programmes.length).toBeGreaterThan(0);
    expect(keyed.byBearer.body).toBe(keyed.byId.body);
    const keyless = await client(fresh).radio.guide("fm:ce1.c123.09580", DAY);
    expect(keyless.discovered).toMatchObject({ application: "radioepg", port: 80 });
    expect(keyless.service.names.length).toBeGreaterThan(0);
    expect(keyless.byId.status).toBe(401);
  });
});
