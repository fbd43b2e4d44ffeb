import { randomBytes } from "node:crypto";
import { UsageError } from "../exit/spiStaticError.js";
import { parseBroadcastBearer, serviceIdentifiersOf } from "../load/formats/radiodnsBearer.js";
import { KEYED_SI_PATH, OPEN_SI_PATH, SPI_BASE } from "../site/siteContract.js";
import { addDays, compactDate, type PlainDate } from "../time/plainDate.js";
import { FetchLimitError, fetchExactly, type RawResponse } from "./fetchExactly.js";
import { SchemaCheck } from "./schemaCheck.js";
import { logoProblems, logosNamedIn, type NamedLogo, ownLogoPath } from "./siLogos.js";
import { madeAt, siteToday, staleness } from "./siteFreshness.js";

export interface VerifyOptions {
  /** The site root, e.g. https://spi.example.org or http://127.0.0.1:8080. */
  baseUrl: string;
  /** A valid API key; without it the checks that need one are skipped. */
  key?: string | undefined;
  /** Without a key, the skipped checks count as passed (else as failed: nothing was proven). */
  withoutKey?: boolean | undefined;
  /** The site serves PI without a key (`discovery.pi: open`): 200, not 401, without one. */
  openPi?: boolean | undefined;
  /** The clock the site is expected to agree with (UTC ms). */
  now: number;
  /** The whole run, every request included (DEFAULT_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Nights late that fail the freshness check (DEFAULT_STALE_AFTER); fewer, but one or more, warn. */
  staleAfter?: number;
  /** The most bytes an answer may have (MAX_DOCUMENT_BYTES); smaller in tests. */
  maxBytes?: number;
}

export interface VerifyCheck {
  name: string;
  ok: boolean;
  /** Passed, but something is wrong that will fail it soon (a site a night late). */
  warning?: true;
  /** Not run: it needs a key. Passed only when that was expected (`withoutKey`). */
  skipped?: true;
  detail: string;
}

export interface VerifyReport {
  ok: boolean;
  checks: VerifyCheck[];
}

/** The command line asks for something unsafe, e.g. a key over plain http to another host. */
export class VerifyUsageError extends UsageError {}

/** PI requests in flight at once: enough for a thousand services, gentle on a small origin. */
const PARALLEL_REQUESTS = 8;
/** The whole run's default limit: thousands of services at 8 requests at a time fit. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** The most one request may take of it: a server trickling bytes cannot hold the run up. */
const REQUEST_TIMEOUT_MS = 15_000;
/** A nightly site this many nights late fails verify; one night late warns. */
export const DEFAULT_STALE_AFTER = 2;
/**
 * The site's "today" is the date in the provider's zone, which verify does not know; it is
 * within a day of the UTC date. So today (UTC) is inside the ±7 window and ±10 is outside.
 */
const OUTSIDE_WINDOW_DAYS = 10;

/** An IP stream bearer: what only the keyed SI may contain. */
const STREAM_BEARER = /<bearer\b[^>]*\bid="https?:/;

interface Service {
  host: string;
  id: string;
  /** Its DAB and FM bearer ids, as the SI lists them. */
  bearers: string[];
}

type Auth = "none" | "key" | "invalid key";

/**
 * Checks a deployed site (or the local preview) the way a client sees it: SI open and keyed, a
 * PI per service for today, the 401/403/404/400 answers, that the keyed SI cannot be reached
 * without the key by any path spelling, the logos the open SI names on the site itself, and the
 * schema validity of every document fetched.
 */
export async function verifySite(options: VerifyOptions): Promise<VerifyReport> {
  const base = new URL(options.baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:") {
    throw new VerifyUsageError(`${options.baseUrl} is not an http(s) URL`);
  }
  if (options.key && options.withoutKey) {
    throw new VerifyUsageError("--without-key and a key contradict each other");
  }
  if (options.key && base.protocol === "http:" && !isLoopback(base.hostname)) {
    throw new VerifyUsageError(
      `refusing to send the API key in clear text to ${base.host}: use https:// (plain http is for a local preview)`,
    );
  }
  const prefix = base.pathname.replace(/\/+$/, "");
  const invalidKey = `spi-static-verify-${randomBytes(8).toString("hex")}`;
  const checks: VerifyCheck[] = [];
  const schema = new SchemaCheck();
  const runTimeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = Date.now() + runTimeoutMs;

  /** A request within what is left of the run's time, and within the size cap. */
  function fetchLimited(path: string, headers: Record<string, string>): Promise<RawResponse> {
    const left = deadline - Date.now();
    if (left <= 0) {
      const seconds = runTimeoutMs / 1000;
      return Promise.reject(
        new FetchLimitError(`not sent: the run's ${seconds} s (--timeout) are spent`),
      );
    }
    return fetchExactly(base, path, headers, {
      timeoutMs: Math.min(left, REQUEST_TIMEOUT_MS),
      ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    });
  }

  async function get(
    path: string,
    auth: Auth,
    extra: Record<string, string> = {},
  ): Promise<RawResponse> {
    const key = auth === "key" ? options.key : auth === "invalid key" ? invalidKey : undefined;
    const headers: Record<string, string> = key ? { Authorization: `ClientIdentifier ${key}` } : {};
    return fetchLimited(`${prefix}${path}`, { ...headers, ...extra });
  }

  /**
   * One request, one check: the expected status, an XML content type, and whatever `inspect`
   * finds wrong (it returns problems). A 200 document joins the schema check.
   */
  async function probe(
    name: string,
    path: string,
    auth: Auth,
    status: number,
    inspect: (response: RawResponse) => string[] = () => [],
  ): Promise<RawResponse | undefined> {
    let response: RawResponse;
    try {
      response = await get(path, auth);
    } catch (error) {
      checks.push({ name, ok: false, detail: `GET ${path}: ${(error as Error).message}` });
      return undefined;
    }
    const problems: string[] = [];
    if (response.status !== status) problems.push(`status ${response.status}, expected ${status}`);
    const type = String(response.headers["content-type"] ?? "");
    if (!/^application\/xml\b/.test(type))
      problems.push(`Content-Type "${type}", expected application/xml`);
    if (response.status === status) problems.push(...inspect(response));
    if (response.status === 200)
      await schema.add({ name: `${name} (${path})`, xml: response.body });
    checks.push({
      name,
      ok: problems.length === 0,
      detail:
        problems.length === 0 ? `${status} from ${path}` : `${problems.join("; ")} — GET ${path}`,
    });
    return response;
  }

  /** Adds what a passed check saw to its line, e.g. how many services. */
  function note(text: string) {
    const last = checks.at(-1);
    if (last?.ok) last.detail += `, ${text}`;
  }

  const skipped = (name: string): VerifyCheck =>
    options.withoutKey
      ? { name, ok: true, skipped: true, detail: "no key, as expected (--without-key)" }
      : {
          name,
          ok: false,
          skipped: true,
          detail:
            "needs a key (--key, --keys-file or SPI_VERIFY_KEY); --without-key if that is expected",
        };

  const siPath = `/${OPEN_SI_PATH}`;
  // One request first: when it cannot reach the site at all, every other check would say the same.
  try {
    await get(siPath, "none");
  } catch (error) {
    const detail = `GET ${siPath}: ${(error as Error).message}`;
    return { ok: false, checks: [{ name: "site reachable", ok: false, detail }] };
  }
  const openSi = await probe("SI without a key", siPath, "none", 200, (r) => [
    ...(STREAM_BEARER.test(r.body) ? ["the open SI contains stream URLs"] : []),
    ...openAnswer(r),
  ]);
  const services = openSi?.status === 200 ? servicesOf(openSi.body) : [];
  note(`${services.length} services, no stream URLs`);
  if (openSi?.status === 200 && services.length === 0) {
    checks.push({
      name: "services listed in SI",
      ok: false,
      detail: "the open SI names no service",
    });
  }
  if (openSi?.status === 200) {
    checks.push(await revalidation(get, "SI revalidation (If-None-Match)", siPath, "none"));
    const logos = logosNamedIn(openSi.body);
    if (logos.length > 0) {
      checks.push(await logoAnswers(logos, base, (path) => fetchLimited(path, {})));
    }
  }
  const withInvalidKey = await probe("SI with an invalid key", siPath, "invalid key", 403);
  const misconfigured = keysMisconfigured(withInvalidKey);
  if (misconfigured !== undefined) {
    checks.push({ name: "key configuration (API_KEY_SHA256)", ok: false, detail: misconfigured });
  }

  let keyedSi: RawResponse | undefined;
  if (options.key) {
    keyedSi = await probe("SI with the key", siPath, "key", 200, (r) => [
      ...privateAnswer(r),
      ...(openSi?.status === 200 && servicesOf(r.body).length < services.length
        ? ["the keyed SI lists fewer services than the open one"]
        : []),
    ]);
    note(`${keyedSi?.body.match(new RegExp(STREAM_BEARER, "g"))?.length ?? 0} stream URLs`);
    if (keyedSi?.status === 200) {
      // Without the key, the keyed SI's ETag must get the open SI, never a 304 for the keyed one.
      const otherEtag = header(openSi, "etag");
      checks.push(
        await revalidation(get, "keyed SI revalidation (If-None-Match)", siPath, "key", {
          auth: "none",
          status: 200,
          otherEtag,
        }),
      );
    }
  } else {
    checks.push(skipped("SI with the key"));
  }
  checks.push(await keyedSiUnreachable(get, keyedSi?.status === 200 ? keyedSi.body : undefined));

  const today = utcDate(options.now);
  const piPath = (service: Service, date: string) =>
    `/${SPI_BASE}/id/${service.host}/${service.id}/${date}_PI.xml`;
  const [first] = services;
  // Services on their own FQDNs may share a serviceIdentifier: then the FQDN tells them apart.
  const nameOf = (service: Service) =>
    services.filter((other) => other.id === service.id).length > 1
      ? `${service.host}/${service.id}`
      : service.id;
  if (first && options.openPi) {
    await probe(
      `PI without a key, open PI (${first.id})`,
      piPath(first, today),
      "none",
      200,
      openAnswer,
    );
  } else if (first) {
    await probe(`PI without a key (${first.id})`, piPath(first, today), "none", 401, (r) =>
      /^ClientIdentifier\b/.test(String(r.headers["www-authenticate"] ?? ""))
        ? []
        : ["no WWW-Authenticate: ClientIdentifier header"],
    );
    await probe(`PI with an invalid key (${first.id})`, piPath(first, today), "invalid key", 403);
  }
  if (options.key && first) {
    await inParallel(services, (service) =>
      probe(
        `PI for ${nameOf(service)}, today (${today})`,
        piPath(service, today),
        "key",
        200,
        (r) => [
          ...privateAnswer(r),
          ...(/<epg\b/.test(r.body) ? [] : ["not a PI document (no <epg>)"]),
        ],
      ),
    );
    checks.push(
      await revalidation(
        get,
        `PI revalidation (If-None-Match, ${first.id})`,
        piPath(first, today),
        "key",
        { auth: "none", status: options.openPi ? 304 : 401 },
      ),
    );
    const unknown = { ...first, id: `zz${randomBytes(5).toString("hex")}` };
    await probe("PI of an unknown service", piPath(unknown, today), "key", 404);
    const before = utcDate(options.now, -OUTSIDE_WINDOW_DAYS);
    const after = utcDate(options.now, OUTSIDE_WINDOW_DAYS);
    await probe(`PI ${OUTSIDE_WINDOW_DAYS} days ago`, piPath(first, before), "key", 404);
    await probe(`PI in ${OUTSIDE_WINDOW_DAYS} days`, piPath(first, after), "key", 404);
    await probe("PI with a 7-digit date", piPath(first, today.slice(0, 7)), "key", 400);
    await probe("PI of 13/32", piPath(first, `${today.slice(0, 4)}1332`), "key", 400);
    await probe("PI with a query string", `${piPath(first, today)}?day=1`, "key", 400);
  } else {
    checks.push(skipped("PI per service for today, 404 and 400 answers"));
  }
  if (options.key || options.openPi) {
    const auth = options.key ? "key" : "none";
    checks.push(await bearerPaths(get, services, today, piPath, auth));
    if (first) {
      checks.push(
        await freshness(services, {
          get: (path) => get(path, auth),
          piPath: (service, date) => piPath(service, compactDate(date)),
          nameOf,
          utcToday: new Date(options.now).toISOString().slice(0, 10),
          now: options.now,
          si: openSi?.status === 200 ? openSi : undefined,
          staleAfter: options.staleAfter ?? DEFAULT_STALE_AFTER,
          schema,
        }),
      );
    }
  } else {
    checks.push(skipped("PI by bearer path, freshness of the window's far end"));
  }

  await schema.flush();
  const { count, violations, violationCount } = schema;
  checks.push({
    name: "schema validity (spi_31.xsd)",
    ok: violationCount === 0 && count > 0,
    detail:
      count === 0
        ? "no document could be fetched"
        : violationCount === 0
          ? `all ${count} documents fetched are valid`
          : violations.map((v) => `${v.document}:${v.line ?? "?"} ${v.message}`).join("; ") +
            (violationCount > violations.length
              ? `; and ${violationCount - violations.length} more`
              : ""),
  });
  return { ok: checks.every((check) => check.ok), checks };
}

interface FreshnessContext {
  get: (path: string) => Promise<RawResponse>;
  piPath: (service: Service, date: PlainDate) => string;
  nameOf: (service: Service) => string;
  utcToday: PlainDate;
  now: number;
  si: RawResponse | undefined;
  staleAfter: number;
  schema: SchemaCheck;
}

/**
 * Is the site rebuilt every night? Each service's PI at the window's far end (today + 7 in the
 * provider's zone, found from where the window starts) and the age of the newest document,
 * judged by `staleness`: late by `staleAfter` nights or more fails, by fewer warns.
 */
async function freshness(services: Service[], context: FreshnessContext): Promise<VerifyCheck> {
  const { get, piPath, staleAfter } = context;
  const name = `fresh: the window's far end (today + 7), at most ${staleAfter - 1} night${staleAfter === 2 ? "" : "s"} late`;
  const [first] = services as [Service];
  try {
    const today = await siteToday(
      context.utcToday,
      async (date) => (await get(piPath(first, date))).status === 200,
    );
    if (today === undefined) {
      return {
        name,
        ok: false,
        detail: `no PI of ${context.nameOf(first)} for any day from ${addDays(context.utcToday, -8)} to ${addDays(context.utcToday, -6)}: the window's near end (today − 7) is missing`,
      };
    }
    const farEnd = addDays(today, 7);
    let newest = context.si ? madeAt(context.si.body, context.si.headers) : undefined;
    const short: Service[] = [];
    await inParallel(services, async (service) => {
      const path = piPath(service, farEnd);
      const response = await get(path);
      if (response.status !== 200) {
        short.push(service);
        return;
      }
      const made = madeAt(response.body, response.headers);
      if (made !== undefined) newest = Math.max(newest ?? made, made);
      await context.schema.add({ name: `PI at the far end (${path})`, xml: response.body });
    });
    short.sort((a, b) => services.indexOf(a) - services.indexOf(b));
    let daysShort = 0;
    const [firstShort] = short;
    if (firstShort) {
      // The service's last day: as many days short as the last build is nights behind, less one.
      daysShort = 1;
      while (
        daysShort < 15 &&
        (await get(piPath(firstShort, addDays(farEnd, -daysShort)))).status !== 200
      ) {
        daysShort++;
      }
    }
    const late = staleness(farEnd, daysShort, short.map(context.nameOf), newest, context.now);
    const ok = late.nightsLate < staleAfter;
    const nights = `${late.nightsLate} night${late.nightsLate === 1 ? "" : "s"} late`;
    return {
      name,
      ok,
      ...(ok && late.nightsLate > 0 ? { warning: true as const } : {}),
      detail: `${late.nightsLate === 0 ? "on time" : nights}: ${late.detail}`,
    };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message };
  }
}

function header(response: RawResponse | undefined, name: string): string | undefined {
  const value = response?.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Revalidation as radios and CDNs do it: the 200 carries an ETag, and sending it back in
 * If-None-Match gets a 304 without a body, with the same ETag, Cache-Control and Vary. The 304
 * comes only after the key check: the same request with `refused.auth` still gets
 * `refused.status` (401 for PI, the open SI for the SI path), so an ETag never stands in for a
 * key. A keyed document's ETag must differ from the open one's (`refused.otherEtag`).
 */
async function revalidation(
  get: (path: string, auth: Auth, extra?: Record<string, string>) => Promise<RawResponse>,
  name: string,
  path: string,
  auth: Auth,
  refused?: { auth: Auth; status: number; otherEtag?: string | undefined },
): Promise<VerifyCheck> {
  try {
    const first = await get(path, auth);
    const etag = header(first, "etag");
    if (first.status !== 200 || etag === undefined) {
      const why = first.status !== 200 ? `status ${first.status}` : "no ETag";
      return { name, ok: false, detail: `${why} on GET ${path}: clients cannot revalidate` };
    }
    const problems: string[] = [];
    if (refused?.otherEtag === etag) problems.push(`the same ETag as the open SI (${etag})`);
    const again = await get(path, auth, { "If-None-Match": etag });
    if (again.status !== 304) problems.push(`status ${again.status}, expected 304`);
    else {
      if (again.body !== "") problems.push("the 304 has a body");
      for (const field of ["etag", "cache-control", "vary"]) {
        if (header(again, field) !== header(first, field)) {
          problems.push(
            `the 304's ${field} ${header(again, field)} is not the 200's ${header(first, field)}`,
          );
        }
      }
    }
    if (refused) {
      const without = await get(path, refused.auth, { "If-None-Match": etag });
      if (without.status !== refused.status) {
        problems.push(
          `${refused.auth === "none" ? "without a key" : `with ${refused.auth}`}: status ${without.status}, expected ${refused.status}`,
        );
      }
    }
    return problems.length === 0
      ? {
          name,
          ok: true,
          detail: `304 for If-None-Match ${etag}${refused ? `, ${refused.status} without the key` : ""}`,
        }
      : {
          name,
          ok: false,
          detail: `${problems.join("; ")} — GET ${path} with If-None-Match ${etag}`,
        };
  } catch (error) {
    return { name, ok: false, detail: `GET ${path}: ${(error as Error).message}` };
  }
}

/**
 * Every spelling of the keyed SI's path a server might normalise to the file: encoded
 * underscores and dots, traversal from the public tree, doubled and back slashes, case.
 */
function keyedSiPathVariants(): string[] {
  const keyed = `/${KEYED_SI_PATH}`;
  const rest = keyed.slice("/_keyed".length);
  return [
    keyed,
    `/%5Fkeyed${rest}`,
    `/%5fkeyed${rest}`,
    `/_KEYED${rest}`,
    `/_keyed${rest.replace("SI.xml", "si.xml")}`,
    `/${SPI_BASE}/../../..${keyed}`,
    `/${SPI_BASE}/%2e%2e/%2e%2e/%2e%2e${keyed}`,
    `/${SPI_BASE}/..%2f..%2f..%2f${keyed.slice(1).replaceAll("/", "%2f")}`,
    `/${SPI_BASE}\\..\\..\\..${keyed.replaceAll("/", "\\")}`,
    `/${keyed}`,
    `${keyed}?`,
    `${keyed}%00`,
  ];
}

async function keyedSiUnreachable(
  get: (path: string, auth: Auth) => Promise<RawResponse>,
  keyedBody: string | undefined,
): Promise<VerifyCheck> {
  const name = "keyed SI unreachable without the key";
  const leaks: string[] = [];
  const statuses = new Map<number, number>();
  for (const path of keyedSiPathVariants()) {
    try {
      const response = await get(path, "none");
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const leaked =
        response.status === 200 &&
        (STREAM_BEARER.test(response.body) ||
          (keyedBody !== undefined && response.body === keyedBody));
      if (leaked) leaks.push(path);
    } catch (error) {
      return { name, ok: false, detail: `GET ${path}: ${(error as Error).message}` };
    }
  }
  const answered = [...statuses].map(([status, count]) => `${count}× ${status}`).join(", ");
  return leaks.length === 0
    ? {
        name,
        ok: true,
        detail: `${keyedSiPathVariants().length} path spellings tried: ${answered}`,
      }
    : { name, ok: false, detail: `served with stream URLs at ${leaks.join(" ")}` };
}

/**
 * The rules answer every keyed request 503 `keys-misconfigured` when the deployment's
 * API_KEY_SHA256 secret holds anything but SHA-256 digests: name that, not just a wrong status.
 */
function keysMisconfigured(response: RawResponse | undefined): string | undefined {
  if (response?.status !== 503 || !/\bcode="keys-misconfigured"/.test(response.body)) return;
  const reason = />([^<]*)<\/error>/.exec(response.body)?.[1] ?? "";
  return (
    `the secret holds no valid SHA-256 digest, so no key works: ${reason.replace(/&#(\d+);/g, (_, c) => String.fromCharCode(Number(c)))} ` +
    "Set it to the digests of your keys (docs/edge-rules.md, Keys)"
  );
}

/**
 * Keyed answers must never sit in a shared cache, but the radio's own cache may keep them
 * (TS 102 818 §10.5.1 recommends devices cache): `private`, without `no-store`.
 */
function privateAnswer(response: RawResponse): string[] {
  const problems: string[] = [];
  const cacheControl = String(response.headers["cache-control"] ?? "");
  if (!/\bprivate\b/.test(cacheControl)) {
    problems.push(`Cache-Control "${cacheControl}" lets a shared cache keep a keyed answer`);
  }
  if (/\bno-store\b/.test(cacheControl)) {
    problems.push(
      `Cache-Control "${cacheControl}" forbids the radio's own cache (TS 102 818 §10.5.1); "private, no-cache" keeps it private and revalidated`,
    );
  }
  return problems;
}

/**
 * What anyone may fetch (the open SI, open PI) is kept by radios and shared caches for a
 * while, and a browser player on another origin may read it (CORS).
 */
function openAnswer(response: RawResponse): string[] {
  const problems: string[] = [];
  const cacheControl = String(response.headers["cache-control"] ?? "");
  const maxAge = Number(/\bmax-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
  if (
    !/\bpublic\b/.test(cacheControl) ||
    maxAge === 0 ||
    /\bno-(store|cache)\b/.test(cacheControl)
  ) {
    problems.push(
      `Cache-Control "${cacheControl}": an open document should be cacheable by radios and CDNs (public, max-age)`,
    );
  }
  if (header(response, "access-control-allow-origin") !== "*") {
    problems.push("no Access-Control-Allow-Origin: *, so a browser player cannot read it");
  }
  return problems;
}

/**
 * The services an SI document announces, from their radiodns elements (fqdn +
 * serviceIdentifier), each with its DAB and FM bearers.
 */
function servicesOf(xml: string): Service[] {
  const services: Service[] = [];
  for (const [service] of xml.matchAll(/<service\b[\s\S]*?<\/service>/g)) {
    const element = /<radiodns\b[^>]*>/.exec(service)?.[0] ?? "";
    const host = /\bfqdn="([^"]+)"/.exec(element)?.[1];
    const id = /\bserviceIdentifier="([^"]+)"/.exec(element)?.[1];
    const bearers = [...service.matchAll(/<bearer\b[^>]*\bid="((?:dab|fm):[^"]+)"/g)].map(
      (match) => match[1] as string,
    );
    if (host && id) services.push({ host, id, bearers });
  }
  return services;
}

/**
 * PI by the path a radio builds from each DAB/FM bearer the SI lists (TS 102 818 §10.3): the
 * same document as the service's id/ path; and a bearer no service has is 404.
 */
async function bearerPaths(
  get: (path: string, auth: Auth) => Promise<RawResponse>,
  services: Service[],
  today: string,
  piPath: (service: Service, date: string) => string,
  auth: Auth,
): Promise<VerifyCheck> {
  const name = `PI by bearer path, today (${today})`;
  const problems: string[] = [];
  let tried = 0;
  try {
    for (const service of services) {
      const identifiers = service.bearers.flatMap((id) => {
        const bearer = parseBroadcastBearer(id);
        return bearer ? serviceIdentifiersOf(bearer) : [];
      });
      if (identifiers.length === 0) continue;
      const byId = await get(piPath(service, today), auth);
      for (const identifier of identifiers) {
        const path = `/${SPI_BASE}/${identifier}/${today}_PI.xml`;
        const response = await get(path, auth);
        tried++;
        if (response.status !== 200) problems.push(`${response.status} from ${path}`);
        else if (response.body !== byId.body) problems.push(`${path} differs from the id/ path`);
      }
    }
    // No GCC starts with 0, so this bearer is nobody's.
    const unknown = `/${SPI_BASE}/fm/0a0/0000/00000/${today}_PI.xml`;
    const response = await get(unknown, auth);
    if (response.status !== 404) problems.push(`${response.status} from ${unknown}, expected 404`);
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message };
  }
  if (problems.length > 0) return { name, ok: false, detail: problems.slice(0, 5).join("; ") };
  return {
    name,
    ok: true,
    detail: `${tried} bearer paths, each the service's id/ document; an unknown bearer 404`,
  };
}

/**
 * The logos the open SI names on the site itself, fetched as a radio would (no key): each a 200
 * with the image type, public long-lived caching and (PNG/JPEG) the pixel size SI says. Logos on
 * other hosts are not fetched: they are counted in the detail.
 */
async function logoAnswers(
  logos: NamedLogo[],
  site: URL,
  fetchPath: (path: string) => Promise<RawResponse>,
): Promise<VerifyCheck> {
  const name = "logos named by the open SI";
  const own = logos.flatMap((logo) => {
    const path = ownLogoPath(logo, site);
    return path === undefined ? [] : [{ logo, path }];
  });
  const external = logos.length - own.length;
  const problems: string[] = [];
  await inParallel(own, async ({ logo, path }) => {
    try {
      const found = logoProblems(logo, await fetchPath(path));
      if (found.length > 0) problems.push(`${found.join(", ")} — GET ${path}`);
    } catch (error) {
      problems.push(`GET ${path}: ${(error as Error).message}`);
    }
  });
  const notFetched = external === 0 ? "" : `; ${external} on other hosts not fetched`;
  if (problems.length > 0) {
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : "";
    return { name, ok: false, detail: `${problems.sort().slice(0, 5).join("; ")}${more}` };
  }
  return {
    name,
    ok: true,
    detail:
      own.length === 0
        ? `none on this site${notFetched}`
        : `${own.length} on this site: 200, image type and pixel size as SI says, public and cached for a day or more${notFetched}`,
  };
}

function utcDate(now: number, offsetDays = 0): string {
  const date: PlainDate = new Date(now).toISOString().slice(0, 10);
  return compactDate(addDays(date, offsetDays));
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

async function inParallel<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, items.length) }, worker));
}
