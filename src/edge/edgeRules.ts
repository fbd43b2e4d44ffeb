/**
 * The edge rules: what turns the static output folder into the SPI API of the seed (§4, §5, §7,
 * §8) — key checks, the today±7 window, status codes, cache headers, error bodies.
 *
 * `createEdgeWorker` is written into `out/_worker.js` as source text (`edgeFiles.ts` uses
 * `Function.prototype.toString`), so the very same function runs in Cloudflare (Pages advanced
 * mode or a Worker with static assets), in the preview server and in the tests. Hence two
 * rules for the code inside it: only Web-standard globals (Request, Response, URL, Headers,
 * crypto.subtle, Intl, TextEncoder), and no reference to anything outside the function — not
 * even a module-level constant. Types outside it are fine: they are erased.
 */

/** Everything the rules know about one built site; embedded in out/_worker.js as JSON. */
export interface EdgeSite {
  /** Asset path of the open SI, relative to the output folder (site/siteContract.ts). */
  openSiPath: string;
  /** Asset path of the keyed SI; never a URL a client can request. */
  keyedSiPath: string;
  /**
   * PI asset path with `{service}` and `{date}` (yyyyMMdd) placeholders; `{service}` stands for
   * a service's `<fqdn>/<serviceIdentifier>`, as in `serviceIds`.
   */
  piPathTemplate: string;
  /** PI URL path by bearer, with `{bearer}` (a ServiceIdentifier) and `{date}` placeholders. */
  bearerPiPathTemplate: string;
  /** The service (`<fqdn>/<serviceIdentifier>`) each bearer's ServiceIdentifier (`dab/4e1/4fe1/4e01/0`) stands for. */
  bearerServices: Record<string, string>;
  /**
   * Every service as `<fqdn>/<serviceIdentifier>`, sorted: the host literal is each service's own
   * Authoritative FQDN (most often the provider's radiodnsHost for all).
   */
  serviceIds: string[];
  /**
   * The FQDNs of `serviceIds`, each once, sorted: a PI path under any other host is no document
   * of ours. Written by the build so that a runtime that runs these rules afresh for every
   * request (njs) does not split every service id each time.
   */
  hosts: string[];
  /** PI without a key (the provider's choice); keyed SI still needs one. */
  openPi: boolean;
  /** The provider's IANA zone: "today" is the date there at request time. */
  timeZone: string;
  /** The API serves PI for today−windowDays … today+windowDays. */
  windowDays: number;
  /** SHA-256 digests (lowercase hex) of the keys the build was given; used when the deployment sets none. */
  keyDigests: string[];
  /** `max-age` (seconds) of the open documents (SI, and PI when open): what any cache may keep. */
  openMaxAge: number;
}

/** The static files: Cloudflare's ASSETS binding, or the preview's folderAssets. */
export interface AssetFetcher {
  fetch(request: Request): Promise<Response>;
}

/** What the rules read of an R2 object: its bytes and the validators R2 keeps. */
export interface BucketObject {
  body: ReadableStream;
  /** The quoted ETag (`"<md5>"`): strong, as the asset store's. */
  httpEtag: string;
  /** When the object was written: the upload writes one only when its document changed. */
  uploaded: Date;
}

/** An R2 bucket binding, as far as the rules use it. */
export interface DocumentBucket {
  get(key: string): Promise<BucketObject | null>;
}

/** The worker's environment (Cloudflare bindings, or what the preview server passes). */
export interface EdgeEnv {
  /** The static files; unused when DOCUMENTS is bound. */
  ASSETS?: AssetFetcher;
  /**
   * An R2 bucket holding out/'s documents under their asset paths (docs/deploy.md, "Past the
   * assets limit"): when bound, it answers in place of ASSETS.
   */
  DOCUMENTS?: DocumentBucket;
  /**
   * SHA-256 digests (hex, any case) separated by commas, semicolons or white space, or pasted
   * `sha256sum` lines (`<hex>  -`); when set (non-empty) they replace the build's digests. Read
   * as untrusted: a binding of another type, or any entry that is not a digest, makes every
   * keyed request a 503 `keys-misconfigured` (never a crash, never a silently dropped digest).
   */
  API_KEY_SHA256?: string;
  /** An ISO instant used as "now" instead of the clock: for tests and previews of another day. */
  SPI_FIXED_NOW?: string;
}

export interface EdgeWorker {
  fetch(request: Request, env: EdgeEnv): Promise<Response>;
}

/** The statuses the rules can answer with; anything else is a bug (the property test checks). */
export const EDGE_STATUSES = [200, 204, 304, 400, 401, 403, 404, 405, 503] as const;

export function createEdgeWorker(site: EdgeSite): EdgeWorker {
  const XML_TYPE = "application/xml; charset=utf-8";
  /** Errors: nothing keeps them, so a fixed key or a new day is seen at once. */
  const PRIVATE = "private, no-store";
  /**
   * A document the key decided: the radio may keep it (TS 102 818 §10.5.1 recommends devices
   * cache), no shared cache may, and it is revalidated by its ETag before each use.
   */
  const KEYED_DOCUMENT = "private, no-cache";
  /** A document anyone may fetch: the radio and shared caches keep it for the max-age. */
  const OPEN_DOCUMENT = `public, max-age=${site.openMaxAge}`;
  const ALLOW = "GET, HEAD";
  /**
   * The open documents to a browser on any origin (a web player reading SI or open PI). Never
   * with Authorization allowed: a key is not for web pages, and a preflight does not grant it.
   */
  const CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": "ETag",
  };
  const PREFLIGHT = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": ALLOW,
    "Access-Control-Allow-Headers": "If-None-Match, If-Modified-Since",
    "Access-Control-Max-Age": "86400",
  };
  const DAY_MS = 86_400_000;
  const DIGEST = /^[0-9a-f]{64}$/i;
  /** On every SI and PI answer but 405: the key decides them, so no shared cache may mix callers. */
  const KEYED = { Vary: "Authorization" };
  const NO_SNIFF = { "X-Content-Type-Options": "nosniff" };

  const siUrlPath = `/${site.openSiPath}`;
  const [piPrefix, piMiddle] = site.piPathTemplate.split("{service}") as [string, string];
  const piUrlPrefix = `/${piPrefix}`;
  const [piBetween, piSuffix] = piMiddle.split("{date}") as [string, string];
  const [bearerPrefix, bearerMiddle] = site.bearerPiPathTemplate.split("{bearer}") as [
    string,
    string,
  ];
  const bearerUrlPrefix = `/${bearerPrefix}`;
  const [bearerBetween, bearerSuffix] = bearerMiddle.split("{date}") as [string, string];
  /**
   * ServiceIdentifiers of DAB (gcc/eid/sid/scids), FM (gcc/pi/frequency), HD Radio (cc/tx),
   * DRM and AMSS (sid) bearers, ETSI TS 103 270.
   */
  const BEARER_SHAPE = /^(dab(\/[^/]+){4}|fm(\/[^/]+){3}|hd(\/[^/]+){2}|(drm|amss)\/[^/]+)$/;
  /**
   * The site's tables are searched where they are, never copied into a Map or Set first: njs
   * (nginx) runs these rules afresh for every request, where building one would cost each
   * request a pass over every service.
   */
  function listed(sorted: readonly string[], value: string): boolean {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((sorted[middle] as string) < value) low = middle + 1;
      else high = middle;
    }
    return sorted[low] === value;
  }
  function bearerService(identifier: string): string | undefined {
    const table = site.bearerServices;
    return Object.hasOwn(table, identifier) ? table[identifier] : undefined;
  }
  const localDate = new Intl.DateTimeFormat("en-US-u-ca-gregory-nu-latn", {
    timeZone: site.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });

  /** Logos the build made (src/logos): open to all, named by their content so cached for good. */
  const LOGO_PATH =
    /^\/logos\/(provider|services\/[a-z0-9]+|groups\/[a-z][a-z0-9-]*)\/\d+x\d+-[0-9a-f]{16}\.(png|jpg)$/;
  const IMMUTABLE = "public, max-age=31536000, immutable";

  type Route =
    | { kind: "logo"; type: string }
    | { kind: "si" }
    | { kind: "pi"; service: string | undefined; date: string }
    | { kind: "none" };
  type Credential = { kind: "none" } | { kind: "key"; key: string };

  /** Matched on the parsed path exactly: no decoding, no case folding, so every variant is 404. */
  function route(pathname: string): Route {
    if (pathname === siUrlPath) return { kind: "si" };
    if (LOGO_PATH.test(pathname)) {
      return { kind: "logo", type: pathname.endsWith(".png") ? "image/png" : "image/jpeg" };
    }
    if (!pathname.startsWith(piUrlPrefix) || !pathname.endsWith(piSuffix)) {
      return bearerRoute(pathname);
    }
    const rest = pathname.slice(piUrlPrefix.length, pathname.length - piSuffix.length);
    const split = rest.lastIndexOf(piBetween);
    const service = rest.slice(0, split);
    const date = rest.slice(split + piBetween.length);
    // `<fqdn>/<serviceIdentifier>`, both parts present, under an FQDN of ours.
    const parts = service.split("/");
    if (
      split < 1 ||
      parts.length !== 2 ||
      parts[1] === "" ||
      !listed(site.hosts, parts[0] as string)
    ) {
      return { kind: "none" };
    }
    return { kind: "pi", service, date };
  }

  /**
   * PI by the bearer a radio tuned to (TS 102 818 §10.3): one table lookup of the exact
   * ServiceIdentifier. A well-formed one that is not ours is an unknown service.
   */
  function bearerRoute(pathname: string): Route {
    if (!pathname.startsWith(bearerUrlPrefix) || !pathname.endsWith(bearerSuffix)) {
      return { kind: "none" };
    }
    const rest = pathname.slice(bearerUrlPrefix.length, pathname.length - bearerSuffix.length);
    const split = rest.lastIndexOf(bearerBetween);
    const identifier = rest.slice(0, split);
    if (split < 1 || !BEARER_SHAPE.test(identifier)) return { kind: "none" };
    const date = rest.slice(split + bearerBetween.length);
    return { kind: "pi", service: bearerService(identifier), date };
  }

  /** TS 102 818 §10.5: `Authorization: ClientIdentifier <key>`; other schemes carry no SPI key. */
  function credential(request: Request): Credential {
    const header = request.headers.get("authorization");
    if (header === null) return { kind: "none" };
    const match = /^\s*ClientIdentifier(?:\s+(.*?))?\s*$/is.exec(header);
    if (match === null) return { kind: "none" };
    return { kind: "key", key: match[1] ?? "" };
  }

  function isLoopback(hostname: string): boolean {
    return (
      hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname)
    );
  }

  type Configured = { digests: string[] } | { problem: string };
  /** The secret last parsed and what it gave: a worker reads the same secret on every request. */
  let parsedSecret: { secret: unknown; configured: Configured } | undefined;

  /**
   * The digests keys are checked against, or what is wrong with the API_KEY_SHA256 secret.
   * Parsed once per secret, not per request: a list of many digests costs one split and one
   * regular expression per entry, which a keyed request then no longer pays.
   */
  function configuredDigests(env: EdgeEnv): Configured {
    const secret: unknown = env.API_KEY_SHA256;
    if (parsedSecret === undefined || parsedSecret.secret !== secret) {
      parsedSecret = { secret, configured: parseSecret(secret) };
    }
    return parsedSecret.configured;
  }

  function parseSecret(secret: unknown): Configured {
    if (secret === undefined || secret === null) return { digests: site.keyDigests };
    if (typeof secret !== "string") return { problem: "API_KEY_SHA256 is not text" };
    const entries = secret.split(/[\s,;]+/).filter((entry) => entry !== "");
    if (entries.length === 0) return { digests: site.keyDigests };
    const digests: string[] = [];
    for (const [index, entry] of entries.entries()) {
      // `sha256sum` prints "<hex>  -" for its input ("*-" in binary mode): the dash is no entry.
      const dashOfSum = (entry === "-" || entry === "*-") && DIGEST.test(entries[index - 1] ?? "");
      if (DIGEST.test(entry)) digests.push(entry.toLowerCase());
      else if (!dashOfSum) {
        // Its position only: a plain key pasted by mistake must not be echoed.
        return { problem: `entry ${index + 1} of API_KEY_SHA256 is not a SHA-256 digest` };
      }
    }
    return { digests };
  }

  function sameInConstantTime(a: string, b: string): boolean {
    if (a.length !== b.length) return false;
    let difference = 0;
    for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
    return difference === 0;
  }

  /** Every configured digest is compared, without an early exit, so timing tells nothing. */
  async function keyIsValid(key: string, digests: string[]): Promise<boolean> {
    const bytes = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)),
    );
    const digest = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    let valid = false;
    for (const candidate of digests) valid = sameInConstantTime(digest, candidate) || valid;
    return valid;
  }

  /** An unparsable SPI_FIXED_NOW is ignored: a typo in a test setting must not stop the API. */
  function clock(env: EdgeEnv): number {
    const fixed = env.SPI_FIXED_NOW ? Date.parse(env.SPI_FIXED_NOW) : Number.NaN;
    return Number.isNaN(fixed) ? Date.now() : fixed;
  }

  /** Days since 1970-01-01 of a proleptic Gregorian date (setUTCFullYear: years < 100 too). */
  function epochDay(year: number, month: number, day: number): number {
    return Math.round(new Date(0).setUTCFullYear(year, month - 1, day) / DAY_MS);
  }

  function todayInProviderZone(now: number): number {
    const parts = localDate.formatToParts(new Date(now));
    const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    return epochDay(part("year"), part("month"), part("day"));
  }

  /** The requested day, or undefined unless `date` is yyyyMMdd and a calendar date. */
  function requestedDay(date: string): number | undefined {
    if (!/^\d{8}$/.test(date)) return undefined;
    const [year, month, day] = [date.slice(0, 4), date.slice(4, 6), date.slice(6, 8)].map(
      Number,
    ) as [number, number, number];
    const check = new Date(epochDay(year, month, day) * DAY_MS);
    const valid =
      check.getUTCFullYear() === year &&
      check.getUTCMonth() === month - 1 &&
      check.getUTCDate() === day;
    return valid ? epochDay(year, month, day) : undefined;
  }

  function escapeXml(text: string): string {
    return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  }

  /** The documented error body: `<error status="404" code="not-found">message</error>`. */
  function failure(
    request: Request,
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
  ): Response {
    const body =
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<error status="${status}" code="${code}">${escapeXml(message)}</error>\n`;
    return respond(request, status, body, {
      "Cache-Control": PRIVATE,
      ...headers,
    });
  }

  function respond(
    request: Request,
    status: number,
    body: BodyInit | null,
    headers: Record<string, string>,
  ): Response {
    const all = new Headers({
      "Content-Type": XML_TYPE,
      ...NO_SNIFF,
      ...headers,
    });
    return new Response(request.method === "HEAD" ? null : body, { status, headers: all });
  }

  /** The entity tags of an If-None-Match list (RFC 9110 §13.1.2), weak or strong, unquoted. */
  function entityTags(list: string): string[] {
    return Array.from(list.matchAll(/(?:W\/)?"([^"]*)"|\*/g), (m) =>
      m[0] === "*" ? "*" : `${m[1]}`,
    );
  }

  /**
   * RFC 9110 §13.2.2: If-None-Match (weak comparison) decides when present; otherwise
   * If-Modified-Since against Last-Modified, when the asset store gives one.
   */
  function notModified(request: Request, etag: string | null, lastModified: string | null) {
    const ifNoneMatch = request.headers.get("if-none-match");
    if (ifNoneMatch !== null) {
      const current = etag === null ? undefined : entityTags(etag)[0];
      return entityTags(ifNoneMatch).some((tag) => tag === "*" || tag === current);
    }
    const since = Date.parse(request.headers.get("if-modified-since") ?? "");
    const modified = Date.parse(lastModified ?? "");
    return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
  }

  /**
   * The asset with the validators of the stored file (ETag, Last-Modified when the store has
   * one) and its exact length; conditional requests that match get 304. The body is read whole
   * first: documents are small, a HEAD needs the length too, and a 200 is never cut short.
   */
  async function serveAsset(
    request: Request,
    env: EdgeEnv,
    path: string,
    cacheControl: string,
    shared: Record<string, string> = KEYED,
    contentType?: string,
  ): Promise<Response> {
    // The asset path is built from constants and validated parts, never from the request path.
    const asset = await documentStore(env).fetch(new Request(new URL(`/${path}`, request.url)));
    if (asset.status >= 500) {
      await asset.body?.cancel();
      throw new Error(`ASSETS answered ${asset.status}`);
    }
    if (asset.status !== 200 || asset.body === null) {
      await asset.body?.cancel();
      return failure(request, 404, "not-found", "This document is not published.", shared);
    }
    const headers: Record<string, string> = { "Cache-Control": cacheControl, ...shared };
    if (contentType !== undefined) headers["Content-Type"] = contentType;
    const etag = asset.headers.get("etag");
    const lastModified = asset.headers.get("last-modified");
    if (etag !== null) headers.ETag = etag;
    if (lastModified !== null) headers["Last-Modified"] = lastModified;
    if (notModified(request, etag, lastModified)) {
      await asset.body.cancel();
      return new Response(null, { status: 304, headers: { ...headers, ...NO_SNIFF } });
    }
    const body = await asset.arrayBuffer();
    headers["Content-Length"] = String(body.byteLength);
    return respond(request, 200, body, headers);
  }

  /**
   * Where documents are read: the DOCUMENTS bucket when one is bound, answering as the ASSETS
   * binding does (200 with ETag and Last-Modified, 404 for no object), so that every check
   * above is the same code for both. Its object keys are the asset paths.
   */
  function documentStore(env: EdgeEnv): AssetFetcher {
    const bucket = env.DOCUMENTS;
    if (bucket === undefined || bucket === null) {
      if (env.ASSETS === undefined) throw new Error("neither ASSETS nor DOCUMENTS is bound");
      return env.ASSETS;
    }
    return {
      async fetch(request: Request) {
        const object = await bucket.get(decodeURIComponent(new URL(request.url).pathname.slice(1)));
        if (object === null) return new Response(null, { status: 404 });
        return new Response(object.body, {
          headers: { ETag: object.httpEtag, "Last-Modified": object.uploaded.toUTCString() },
        });
      },
    };
  }

  async function handle(request: Request, env: EdgeEnv): Promise<Response> {
    const url = new URL(request.url);
    const target = route(url.pathname);
    if (target.kind === "none") return failure(request, 404, "not-found", "No such document.");
    if (request.method === "OPTIONS") {
      // A browser's CORS preflight: GET and HEAD with validators, from any origin, no key.
      return new Response(null, {
        status: 204,
        headers: { ...PREFLIGHT, Allow: ALLOW, ...NO_SNIFF },
      });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return failure(request, 405, "method-not-allowed", "Only GET and HEAD are allowed.", {
        Allow: ALLOW,
      });
    }
    if (target.kind === "logo") {
      // The path is the whole of LOGO_PATH; no key is asked for or looked at.
      return serveAsset(request, env, url.pathname.slice(1), IMMUTABLE, {}, target.type);
    }
    const sent = credential(request);
    // Without a key, the open documents and their errors are readable from any origin.
    const open = sent.kind === "none" && (target.kind === "si" || site.openPi);
    const shared: Record<string, string> = open ? { ...KEYED, ...CORS } : KEYED;
    if (sent.kind === "key" && url.protocol === "http:" && !isLoopback(url.hostname)) {
      // The key travelled in clear text: refuse it, like the public API, so clients fix it.
      return failure(request, 400, "https-required", "Send the API key over HTTPS only.", KEYED);
    }
    const configured = sent.kind === "key" ? configuredDigests(env) : { digests: [] };
    if ("problem" in configured) {
      // No key can be checked: say so (verify reports it) rather than 403 every valid key.
      return failure(
        request,
        503,
        "keys-misconfigured",
        `No API key can be checked: ${configured.problem} (64 hex digits each).`,
        KEYED,
      );
    }
    const valid = sent.kind === "key" && (await keyIsValid(sent.key, configured.digests));
    if (sent.kind === "key" && !valid) {
      return failure(request, 403, "key-invalid", "The API key is not valid.", KEYED);
    }
    if (target.kind === "si") {
      if (valid) return serveAsset(request, env, site.keyedSiPath, KEYED_DOCUMENT);
      return serveAsset(request, env, site.openSiPath, OPEN_DOCUMENT, shared);
    }
    if (!valid && !site.openPi) {
      return failure(request, 401, "key-required", "Programme information needs an API key.", {
        "WWW-Authenticate": "ClientIdentifier",
        ...KEYED,
      });
    }
    const day = requestedDay(target.date);
    if (url.search !== "" || day === undefined) {
      const message =
        url.search !== ""
          ? "No query parameters are defined."
          : "The date must be a calendar date as yyyyMMdd.";
      return failure(request, 400, "bad-request", message, shared);
    }
    if (Math.abs(day - todayInProviderZone(clock(env))) > site.windowDays) {
      return failure(
        request,
        404,
        "not-found",
        `Only dates within ${site.windowDays} days of today are served.`,
        shared,
      );
    }
    if (target.service === undefined || !listed(site.serviceIds, target.service)) {
      return failure(request, 404, "not-found", "No such service.", shared);
    }
    const path = site.piPathTemplate
      .replace("{service}", target.service)
      .replace("{date}", target.date);
    // Open PI asked without a key is the same for everyone; with a key, the key decided it.
    if (open) return serveAsset(request, env, path, OPEN_DOCUMENT, shared);
    return serveAsset(request, env, path, KEYED_DOCUMENT);
  }

  /**
   * The documented XML 503 whatever the ASSETS binding does (missing, throwing, rejecting,
   * answering 5xx or no Response at all): a thrown error would get the platform's HTML page.
   */
  async function answer(request: Request, env: EdgeEnv): Promise<Response> {
    try {
      return await handle(request, env);
    } catch {
      return failure(
        request,
        503,
        "unavailable",
        "The documents cannot be read just now; try again later.",
        { ...KEYED, "Retry-After": "60" },
      );
    }
  }

  return { fetch: answer };
}
