import type { Resolver } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

/**
 * A minimal RadioDNS hybrid-radio client, written for the tests from the published client
 * behaviour (ETSI TS 103 270 §5, TS 102 818 §10), not from any client's code:
 * 1. the tuned bearer's parameters, reversed, under `<system>.radiodns.org` (the lookup name);
 * 2. its CNAME: the broadcaster's Authoritative FQDN;
 * 3. SRV `_radiospi._tcp` (HTTPS, the client may send its key) when it has a key, and
 *    `_radioepg._tcp` (plain HTTP, never a key) — the one record every client in use reads;
 *    the lowest priority wins; the SRV target and **its port** are where it connects;
 * 4. SI.xml there; the service whose bearer is the one tuned (an FM radio that looked up by
 *    ISO country matches by PI code and frequency), trusted because its radiodns fqdn is the
 *    FQDN the lookup gave (TS 102 818 §10.2.1);
 * 5. the day's PI by `id/<fqdn>/<serviceIdentifier>/` and by the bearer path;
 * 6. every response cached as its headers allow (RFC 9111 for a private cache): kept while
 *    fresh (max-age) unless `no-cache`, revalidated with If-None-Match when stale or `no-cache`,
 *    never kept with `no-store`; a keyless request to keyed PI gets 401 and the client shows
 *    what the SI gave (TS 102 818 §10.5.5).
 */

/**
 * Where the test's network takes a connection to `address:port`: the preview or its TLS front
 * on some loopback port, as a load balancer in front of the real host would.
 */
export type Network = (address: string, port: number) => { host: string; port: number };

export interface ClientOptions {
  resolver: Resolver;
  network: Network;
  /** The client identifier it sends over HTTPS (radiospi), if it has one. */
  key?: string;
  /** CA certificates it trusts for HTTPS (the test's TLS front). */
  ca?: string;
  /** Its clock, for cache freshness. */
  now: () => number;
}

export interface Discovered {
  fqdn: string;
  application: "radiospi" | "radioepg";
  target: string;
  port: number;
}

export interface Guide {
  discovered: Discovered;
  service: { fqdn: string; serviceIdentifier: string; names: string[] };
  /** The PI by `id/` path and by bearer path: status and the programmes each lists. */
  byId: PiAnswer;
  byBearer: PiAnswer;
}

export interface PiAnswer {
  status: number;
  /** `2026-11-23T05:00:00Z The Morning Briefing`, in document order. */
  programmes: string[];
  body: string;
}

interface Cached {
  status: number;
  body: string;
  etag: string | undefined;
  storedAt: number;
  maxAge: number | undefined;
  noCache: boolean;
}

export class RadioDnsClient {
  /** What went over the wire and what the cache answered, for the tests to see. */
  readonly stats = { requests: 0, notModified: 0, fromCache: 0 };
  readonly #cache = new Map<string, Cached>();

  constructor(private readonly options: ClientOptions) {}

  /** Steps 1–3: where this bearer's SPI application is served. */
  async discover(bearer: string): Promise<Discovered> {
    const { resolver, key } = this.options;
    const [system = "", parameters = ""] = bearer.split(":");
    const lookupName = `${parameters.split(".").reverse().join(".")}.${system}.radiodns.org`;
    const [fqdn] = await resolver.resolveCname(lookupName);
    if (!fqdn) throw new Error(`no CNAME at ${lookupName}`);
    const applications = key ? (["radiospi", "radioepg"] as const) : (["radioepg"] as const);
    for (const application of applications) {
      const records = await resolver.resolveSrv(`_${application}._tcp.${fqdn}`).catch(() => []);
      const [best] = records.sort((a, b) => a.priority - b.priority || b.weight - a.weight);
      if (best) return { fqdn, application, target: best.name, port: best.port };
    }
    throw new Error(`no ${applications.join(" or ")} SRV record at ${fqdn}`);
  }

  /** Steps 1–6 for a bearer and a day (yyyyMMdd). */
  async guide(bearer: string, day: string): Promise<Guide> {
    const discovered = await this.discover(bearer);
    const si = await this.get(discovered, "/radiodns/spi/3.1/SI.xml");
    if (si.status !== 200) throw new Error(`SI.xml: ${si.status}`);
    const service = serviceOf(si.body, bearer);
    if (service.fqdn !== discovered.fqdn) {
      throw new Error(`the SI gives ${service.fqdn}, the lookup ${discovered.fqdn}`);
    }
    const [system = "", parameters = ""] = bearer.split(":");
    const pi = async (path: string): Promise<PiAnswer> => {
      const answer = await this.get(discovered, `/radiodns/spi/3.1/${path}/${day}_PI.xml`);
      return { ...answer, programmes: answer.status === 200 ? programmesOf(answer.body) : [] };
    };
    return {
      discovered,
      service,
      byId: await pi(`id/${service.fqdn}/${service.serviceIdentifier}`),
      byBearer: await pi(`${system}/${parameters.split(".").join("/")}`),
    };
  }

  /** A GET through the private cache; the key goes only over HTTPS (TS 102 818 §10.5.5). */
  async get(at: Discovered, path: string): Promise<{ status: number; body: string }> {
    const secure = at.application === "radiospi";
    const url = `${secure ? "https" : "http"}://${at.target}:${at.port}${path}`;
    const cached = this.#cache.get(url);
    const now = this.options.now();
    if (
      cached &&
      !cached.noCache &&
      cached.maxAge !== undefined &&
      now - cached.storedAt < cached.maxAge * 1000
    ) {
      this.stats.fromCache++;
      return cached;
    }
    const headers: Record<string, string> = { host: at.target };
    if (secure && this.options.key) headers.authorization = `ClientIdentifier ${this.options.key}`;
    if (cached?.etag) headers["if-none-match"] = cached.etag;
    const response = await this.send(at, secure, path, headers);
    this.stats.requests++;
    if (response.status === 304 && cached) {
      this.stats.notModified++;
      cached.storedAt = now;
      return cached;
    }
    const cacheControl = response.headers["cache-control"] ?? "";
    if (response.status === 200 && !/\bno-store\b/.test(cacheControl)) {
      const maxAge = /\bmax-age=(\d+)/.exec(cacheControl)?.[1];
      this.#cache.set(url, {
        status: 200,
        body: response.body,
        etag: response.headers.etag,
        storedAt: now,
        maxAge: maxAge === undefined ? undefined : Number(maxAge),
        noCache: /\bno-cache\b/.test(cacheControl),
      });
    }
    return response;
  }

  private send(
    at: Discovered,
    secure: boolean,
    path: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; body: string; headers: Record<string, string | undefined> }> {
    return new Promise((done, fail) => {
      // The SRV target's address, then the port the SRV record gives.
      this.options.resolver.resolve4(at.target).then(([address]) => {
        if (!address) return fail(new Error(`no address for ${at.target}`));
        const route = this.options.network(address, at.port);
        const options = { host: route.host, port: route.port, path, headers };
        const answer = (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("error", fail);
          response.on("end", () => {
            const flat: Record<string, string | undefined> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              flat[name] = Array.isArray(value) ? value.join(", ") : value;
            }
            done({
              status: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              headers: flat,
            });
          });
        };
        const request = secure
          ? httpsRequest({ ...options, servername: at.target, ca: this.options.ca }, answer)
          : httpRequest(options, answer);
        request.on("error", fail);
        request.end();
      }, fail);
    });
  }
}

/** The SI's service carrying the tuned bearer, its radiodns element and its names. */
function serviceOf(si: string, bearer: string): Guide["service"] {
  const services = [...si.matchAll(/<service>[\s\S]*?<\/service>/g)].map((m) => m[0]);
  const [system, parameters = ""] = bearer.split(":");
  const tuned = parameters.split(".");
  const found = services.find((service) =>
    [...service.matchAll(/<bearer id="([^"]+)"/g)].some(([, id = ""]) => {
      if (id === bearer) return true;
      // FM looked up by ISO country: the same PI code and frequency under the SI's GCC.
      const [listedSystem, listed = ""] = id.split(":");
      const [, pi, frequency] = listed.split(".");
      return system === "fm" && listedSystem === "fm" && pi === tuned[1] && frequency === tuned[2];
    }),
  );
  const radiodns = found && /<radiodns fqdn="([^"]+)" serviceIdentifier="([^"]+)"\/>/.exec(found);
  if (!found || !radiodns) throw new Error(`the SI lists no service with bearer ${bearer}`);
  return {
    fqdn: radiodns[1] as string,
    serviceIdentifier: radiodns[2] as string,
    names: [...found.matchAll(/<(?:short|medium|long)Name[^>]*>([^<]*)</g)].map((m) => m[1] ?? ""),
  };
}

/** Each programme's start and its first medium name: what a radio's guide lists. */
function programmesOf(pi: string): string[] {
  return [...pi.matchAll(/<programme [\s\S]*?<\/programme>/g)].map(([programme]) => {
    const name = /<mediumName[^>]*>([^<]*)</.exec(programme)?.[1];
    const time = /<time time="([^"]+)"/.exec(programme)?.[1];
    return `${time} ${name}`;
  });
}
