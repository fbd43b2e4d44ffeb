import { Resolver } from "node:dns/promises";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/runCli.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";
import { freePort, startNsd, zone } from "./nsdServer.js";
import { serveBehindTls } from "./servedSite.js";

/**
 * A radio's whole lookup against real parts: NSD, a real authoritative DNS server on a
 * loopback port, serves the records `spi-static dns` writes (plus the CNAMEs RadioDNS would
 * hold once they are registered), and `spi-static serve` serves the built site. The receiver
 * below knows nothing but a bearer and a DNS server, as a radio does (TS 103 270, TS 102 818
 * §10): bearer → lookup name → CNAME → SRV → host:port → SI.xml → its service → today's PI.
 * `_radiospi` means HTTPS: a TLS front with a certificate for the SRV target (made here with
 * openssl, trusted by the receiver) passes requests to the preview, as a CDN would to the
 * worker; `_radioepg` points at the preview's plain HTTP port.
 * NSD comes from .ci/system-packages; without it this test fails, it is never skipped.
 */

const KEY = "lookup-key-0000000001";
const TODAY = "20261123";
const FQDN = "rdns.aareradio.example";
const SITE_HOST = "spi.aareradio.example";

interface Running {
  root: string;
  outDir: string;
  servePort: number;
  tlsPort: number;
  /** The TLS front's self-signed certificate: the receiver trusts it. */
  certificate: string;
  resolver: Resolver;
  stop: () => Promise<void>;
}

const running: Running[] = [];
afterAll(async () => {
  for (const r of running) await r.stop();
});

/**
 * The example data (with `pi: open` when asked), built, served by `spi-static serve`, and its
 * DNS records from `spi-static dns` served by NSD; SRV ports point at the preview.
 */
async function startWorld(pi: "keyed" | "open"): Promise<Running> {
  const root = await mkdtemp(join(tmpdir(), `spi-lookup-${pi}-`));
  const dataDir = join(root, "data");
  const outDir = join(root, "out");
  await cp(DATA_DIR, dataDir, { recursive: true });
  const servePort = await freePort();
  const tlsPort = await freePort();
  const providerPath = join(dataDir, "provider.yaml");
  const provider = await readFile(providerPath, "utf8");
  const discovery = `$&  httpsPort: ${tlsPort}\n  httpPort: ${servePort}\n  pi: ${pi}\n`;
  await writeFile(providerPath, provider.replace(/^discovery:.*\n/m, discovery));

  const build = await runCli(
    ["build", "--data", dataDir, "--out", outDir, "--now", BUILD_NOW, "--quiet"],
    root,
    { SPI_API_KEYS: KEY },
  );
  expect(build.stderr).toBe("");
  expect(build.code).toBe(0);
  const dns = await runCli(["dns", "--data", dataDir], root);
  expect(dns.code).toBe(0);
  const records = dns.stdout.split("\n").filter((line) => line !== "" && !line.startsWith(";"));
  const srv = records.filter((line) => line.includes(" IN SRV "));
  const cnames = records.filter((line) => line.includes(" IN CNAME "));
  expect(srv.length + cnames.length).toBe(records.length);

  const nsd = await startNsd(root, {
    "aareradio.example": zone("aareradio.example", srv, [`spi IN A 127.0.0.1`]),
    "radiodns.org": zone("radiodns.org", cnames),
  });
  const site = await serveBehindTls({
    root,
    outDir,
    host: SITE_HOST,
    servePort,
    tlsPort,
    originHost: false,
  });
  const stop = async () => {
    await Promise.all([nsd.stop(), site.stop()]);
    await rm(root, { recursive: true, force: true });
  };
  const world: Running = {
    root,
    outDir,
    servePort,
    tlsPort,
    certificate: site.certificate,
    resolver: new Resolver(),
    stop,
  };
  running.push(world);
  world.resolver.setServers([`127.0.0.1:${nsd.port}`]);
  return world;
}

/** What a radio knows after the lookup: where to fetch, and whether to send its key. */
interface Found {
  fqdn: string;
  /** https for radiospi, http for radioepg (TS 102 818 §10.2.2). */
  scheme: "https" | "http";
  /** The SRV target: the name the TLS certificate must carry. */
  host: string;
  address: string;
  port: number;
  sendsKey: boolean;
}

/**
 * The receiver: builds the lookup name from the bearer itself (parameters reversed under
 * radiodns.org), follows the CNAME, and uses radiospi (TLS, with its client key) when the FQDN
 * has it, unless it is a keyless client that asks for radioepg only.
 */
async function lookUp(resolver: Resolver, bearer: string, keyless: boolean): Promise<Found> {
  const [system, parameters] = bearer.split(":") as [string, string];
  const lookupName = `${parameters.split(".").reverse().join(".")}.${system}.radiodns.org`;
  const [fqdn] = await resolver.resolveCname(lookupName);
  if (!fqdn) throw new Error(`no CNAME for ${lookupName}`);
  const srv = async (application: string) =>
    resolver.resolveSrv(`_${application}._tcp.${fqdn}`).catch(() => []);
  const [spi] = await srv("radiospi");
  const [epg] = await srv("radioepg");
  const chosen = keyless ? epg : (spi ?? epg);
  if (!chosen) throw new Error(`no SRV record at ${fqdn}`);
  const [address] = await resolver.resolve4(chosen.name);
  if (!address) throw new Error(`no address for ${chosen.name}`);
  const secure = chosen === spi;
  return {
    fqdn,
    scheme: secure ? "https" : "http",
    host: chosen.name,
    address,
    port: chosen.port,
    sendsKey: secure,
  };
}

/** GET over the scheme the SRV record gave; over TLS the certificate must name the SRV target. */
function get(
  world: Running,
  found: Found,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  const options = { host: found.address, port: found.port, path, headers };
  return new Promise((done, fail) => {
    const answer = (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        done({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
      );
      response.on("error", fail);
    };
    const request =
      found.scheme === "https"
        ? httpsRequest({ ...options, servername: found.host, ca: world.certificate }, answer)
        : httpRequest(options, answer);
    request.on("error", fail);
    request.end();
  });
}

/** The service element of the SI that lists `bearer`, and its radiodns element. */
function serviceOf(si: string, bearer: string) {
  const service = si
    .split("<service>")
    .slice(1)
    .find((element) => element.includes(`<bearer id="${bearer}"`));
  const radiodns =
    service && /<radiodns fqdn="([^"]+)" serviceIdentifier="([^"]+)"\/>/.exec(service);
  if (!radiodns) throw new Error(`SI lists no service with bearer ${bearer}`);
  return { fqdn: radiodns[1] as string, serviceIdentifier: radiodns[2] as string };
}

/**
 * The whole chain for one tuned bearer; `listedAs` is the bearer as the SI lists it (a radio
 * that looked up by ISO country matches the SI's GCC bearer by PI code and frequency).
 */
async function receive(
  world: Running,
  bearer: string,
  serviceIdentifierFromBearer: string,
  options: { listedAs?: string; keyless?: boolean } = {},
) {
  const found = await lookUp(world.resolver, bearer, options.keyless ?? false);
  expect(found.fqdn).toBe(FQDN);
  expect(found.address).toBe("127.0.0.1");
  expect(found.port).toBe(found.scheme === "https" ? world.tlsPort : world.servePort);
  const headers: Record<string, string> = found.sendsKey
    ? { authorization: `ClientIdentifier ${KEY}` }
    : {};
  const siResponse = await get(world, found, "/radiodns/spi/3.1/SI.xml", headers);
  expect(siResponse.status).toBe(200);
  const service = serviceOf(siResponse.body, options.listedAs ?? bearer);
  // TS 102 818 §10.2.1: the bearer is trusted because its lookup led to the SI's FQDN.
  expect(service.fqdn).toBe(found.fqdn);

  const pi = (path: string, withHeaders = headers) =>
    get(world, found, `/radiodns/spi/3.1/${path}/${TODAY}_PI.xml`, withHeaders);
  const byBearer = await pi(serviceIdentifierFromBearer);
  const byId = await pi(`id/${service.fqdn}/${service.serviceIdentifier}`);
  expect([byBearer.status, byId.status]).toEqual([200, 200]);
  const file = await readFile(
    join(world.outDir, `radiodns/spi/3.1/id/${FQDN}/${service.serviceIdentifier}/${TODAY}_PI.xml`),
    "utf8",
  );
  expect(byBearer.body).toBe(file);
  expect(byId.body).toBe(file);
  const withoutKey = await pi(serviceIdentifierFromBearer, {});
  return { found, service, withoutKeyStatus: withoutKey.status };
}

describe("a radio finds the example broadcaster through real DNS", () => {
  let keyed: Running;
  let open: Running;

  beforeAll(async () => {
    keyed = await startWorld("keyed");
    open = await startWorld("open");
  });

  it("DAB (news): CNAME, _radiospi, SI, then today's PI by bearer and by id with its key", async () => {
    const { found, service, withoutKeyStatus } = await receive(
      keyed,
      "dab:4e1.4fe1.4e01.0",
      "dab/4e1/4fe1/4e01/0",
    );
    expect([found.scheme, found.sendsKey]).toEqual(["https", true]);
    expect(service.serviceIdentifier).toBe("news");
    expect(withoutKeyStatus).toBe(401);
  });

  it("FM (pop): the same chain by GCC, and by the ISO country a radio without ECC uses", async () => {
    const byGcc = await receive(keyed, "fm:4e1.4e02.10170", "fm/4e1/4e02/10170");
    expect(byGcc.service.serviceIdentifier).toBe("pop");
    expect(byGcc.withoutKeyStatus).toBe(401);
    const byCountry = await receive(keyed, "fm:ch.4e02.10170", "fm/ch/4e02/10170", {
      listedAs: "fm:4e1.4e02.10170",
    });
    expect(byCountry.found.sendsKey).toBe(true);
    expect(byCountry.service.serviceIdentifier).toBe("pop");
  });

  it("keyed PI still publishes _radioepg: a keyless client gets the open SI, and 401 for PI", async () => {
    const srv = await keyed.resolver.resolveSrv(`_radioepg._tcp.${FQDN}`);
    expect(srv).toEqual([{ name: SITE_HOST, port: keyed.servePort, priority: 0, weight: 100 }]);
    const found = await lookUp(keyed.resolver, "dab:4e1.4fe1.4e01.0", true);
    expect([found.scheme, found.sendsKey, found.port]).toEqual(["http", false, keyed.servePort]);
    const si = await get(keyed, found, "/radiodns/spi/3.1/SI.xml", {});
    expect(si.status).toBe(200);
    expect(serviceOf(si.body, "dab:4e1.4fe1.4e01.0").serviceIdentifier).toBe("news");
    // TS 102 818 §10.5.5: a request without client identification may be answered with an error.
    const pi = await get(keyed, found, `/radiodns/spi/3.1/dab/4e1/4fe1/4e01/0/${TODAY}_PI.xml`, {});
    expect(pi.status).toBe(401);
  });

  it("open PI: _radioepg too, and a keyless client gets SI and PI by bearer and by id", async () => {
    const srv = await open.resolver.resolveSrv(`_radioepg._tcp.${FQDN}`);
    expect(srv).toEqual([{ name: SITE_HOST, port: open.servePort, priority: 0, weight: 100 }]);
    const spi = await open.resolver.resolveSrv(`_radiospi._tcp.${FQDN}`);
    expect(spi).toEqual([{ name: SITE_HOST, port: open.tlsPort, priority: 0, weight: 100 }]);
    const dab = await receive(open, "dab:4e1.4fe1.4e01.0", "dab/4e1/4fe1/4e01/0", {
      keyless: true,
    });
    expect([dab.found.scheme, dab.found.sendsKey]).toEqual(["http", false]);
    expect(dab.withoutKeyStatus).toBe(200);
    const fm = await receive(open, "fm:4e1.4e01.09580", "fm/4e1/4e01/09580", { keyless: true });
    expect(fm.service.serviceIdentifier).toBe("news");
    // A radio with a key still takes _radiospi and sends it.
    const keyedClient = await receive(open, "fm:4e1.4e02.10170", "fm/4e1/4e02/10170");
    expect(keyedClient.found.sendsKey).toBe(true);
  });
});
