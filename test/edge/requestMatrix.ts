import { digestOfKey } from "../../src/edge/apiKeys.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { BUILD_NOW, OVERRIDE_KEY, OWN_HOST, VALID_KEYS } from "./builtSite.js";

/**
 * One request matrix for every way the rules run (directly, preview server, workerd). Each row
 * names its expected outcome; the runs must also agree with each other on every row.
 */

const HOST = "rdns.aareradio.example";
const si = `/${OPEN_SI_PATH}`;
const pi = (service: string, date: string, host = HOST) =>
  `/radiodns/spi/3.1/id/${host}/${service}/${date}_PI.xml`;
const piFile = (service: string, date: string) => pi(service, date).slice(1);

const byBearer = (serviceIdentifier: string, date: string) =>
  `/radiodns/spi/3.1/${serviceIdentifier}/${date}_PI.xml`;

/** The example data as built, with `discovery.pi: open`, and with klassik on its own host. */
export type SiteName = "keyed" | "openPi" | "ownHost";

/** A deployment's situation: its clock and whether it sets the API_KEY_SHA256 secret. */
export interface Setup {
  now: string;
  apiKeySha256?: string;
  /** The built site it serves (default: keyed). */
  site?: SiteName;
}

/**
 * Clocks around local midnight in Zurich (UTC+1 in November): the window follows the provider's
 * date, not UTC's. The build ran at BUILD_NOW and published 2026-11-15 … 2026-12-01.
 */
export const SETUPS = {
  build: { now: BUILD_NOW },
  /** 23:59:59.999 on the 23rd in Zurich. */
  beforeMidnight: { now: "2026-11-23T22:59:59.999Z" },
  /** 00:00 on the 24th in Zurich, still the 23rd in UTC. */
  afterMidnight: { now: "2026-11-23T23:00:00Z" },
  /** 23:59:59 on the 22nd in Zurich. */
  beforeEarlierMidnight: { now: "2026-11-22T22:59:59Z" },
  /** 00:00 on the 23rd in Zurich, still the 22nd in UTC. */
  afterEarlierMidnight: { now: "2026-11-22T23:00:00Z" },
  /** The deployment's secret replaces the build's digests. */
  override: {
    now: BUILD_NOW,
    // Pasted `sha256sum` output in upper case, next to a lower-case digest on the next line.
    apiKeySha256: ` ${digestOfKey(OVERRIDE_KEY).toUpperCase()}  -\n${digestOfKey("unused-key-000000000")}\n`,
  },
  /** The provider chose open PI: no key needed for PI, still for the keyed SI. */
  openPi: { now: BUILD_NOW, site: "openPi" },
  /** The secret holds a plain key instead of its digest: no key can be checked. */
  brokenSecret: { now: BUILD_NOW, apiKeySha256: OVERRIDE_KEY },
  /** Aare Klassik has its own RadioDNS FQDN and serviceIdentifier (builtSite.ts OWN_HOST). */
  ownHost: { now: BUILD_NOW, site: "ownHost" },
} satisfies Record<string, Setup>;

export type SetupName = keyof typeof SETUPS;

export interface Expected {
  status: number;
  /** Asset path (relative to out/) whose bytes are the body of a GET. */
  file?: string;
  /** The `code` attribute of the error body. */
  code?: string;
  /**
   * `public, max-age=3600` (an open document); otherwise a document (`file`) is
   * `private, no-cache` (the key decided it: storable by the radio, revalidated), and an error
   * `private, no-store`.
   */
  open?: boolean;
  /** `Access-Control-Allow-Origin: *` and the ETag exposed: an open document, or its error. */
  cors?: boolean;
  /** A CORS preflight's 204: methods and validator headers allowed, no body, no Cache-Control. */
  preflight?: boolean;
  /** `Vary: Authorization` expected (every SI and PI answer except 405). */
  vary: boolean;
  /** The status instead, where the asset store gives no Last-Modified (Cloudflare's). */
  withoutLastModified?: number;
}

export interface MatrixRow {
  name: string;
  setup: SetupName;
  method: string;
  /** The request target exactly as sent on the wire, not normalised. */
  target: string;
  origin: string;
  headers: Record<string, string>;
  expected: Expected;
  /** The preview server speaks plain http only. */
  httpsOnly: boolean;
  /**
   * The earlier row whose answer's validators fill `{etag}` and `{last-modified}` in this row's
   * headers: each way has its own (workerd's asset store hashes differently, has no mtime).
   */
  probe?: MatrixRow;
}

const LOOPBACK = "http://127.0.0.1";
const key = (k: string) => ({ authorization: `ClientIdentifier ${k}` });
const [KEY, SECOND_KEY] = VALID_KEYS;

const openSi: Expected = { status: 200, file: OPEN_SI_PATH, open: true, cors: true, vary: true };
const keyedSi: Expected = { status: 200, file: KEYED_SI_PATH, vary: true };
const piOk = (service: string, date: string): Expected => ({
  status: 200,
  file: piFile(service, date),
  vary: true,
});
const err = (status: number, code: string, vary = true): Expected => ({ status, code, vary });
/** Open PI asked without a key: the same document for everyone, open to any cache and origin. */
const piOpen = (service: string, date: string): Expected => ({
  ...piOk(service, date),
  open: true,
  cors: true,
});
const openErr = (status: number, code: string): Expected => ({ ...err(status, code), cors: true });
const preflight: Expected = { status: 204, preflight: true, vary: false };
const notFound = err(404, "not-found", false);

const rows: MatrixRow[] = [];
function row(
  name: string,
  target: string,
  expected: Expected,
  options: {
    method?: string;
    headers?: Record<string, string>;
    origin?: string;
    setup?: SetupName;
    probe?: string;
  } = {},
) {
  const origin = options.origin ?? LOOPBACK;
  const probe = rows.find((earlier) => earlier.name === options.probe);
  if (options.probe !== undefined && probe === undefined) throw new Error(options.probe);
  rows.push({
    ...(probe && { probe }),
    name,
    setup: options.setup ?? "build",
    method: options.method ?? "GET",
    target,
    origin,
    headers: options.headers ?? {},
    expected,
    httpsOnly: origin.startsWith("https:"),
  });
}

// SI (seed §4.2, §5): open without a key, keyed with a valid one, 403 with an invalid one.
row("SI without a key", si, openSi);
row("SI HEAD without a key", si, openSi, { method: "HEAD" });
row("SI with a valid key", si, keyedSi, { headers: key(KEY) });
row("SI with the second valid key", si, keyedSi, { headers: key(SECOND_KEY) });
row("SI HEAD with a valid key", si, keyedSi, { method: "HEAD", headers: key(KEY) });
row("SI with an invalid key", si, err(403, "key-invalid"), {
  headers: key("wrong-key-0000000000"),
});
row("SI HEAD with an invalid key", si, err(403, "key-invalid"), {
  method: "HEAD",
  headers: key("wrong-key-00000"),
});
row("SI with an empty ClientIdentifier", si, err(403, "key-invalid"), {
  headers: { authorization: "ClientIdentifier" },
});
row("SI with the scheme in lower case", si, keyedSi, {
  headers: { authorization: `clientidentifier ${KEY}` },
});
row("SI with another scheme (no SPI key)", si, openSi, {
  headers: { authorization: `Bearer ${KEY}` },
});
row("SI ignores a query", `${si}?x=1`, openSi);
for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
  row(`SI ${method}`, si, err(405, "method-not-allowed", false), { method, headers: key(KEY) });
}
// A browser's CORS preflight, before a GET with If-None-Match from a web player.
row("SI OPTIONS (preflight)", si, preflight, {
  method: "OPTIONS",
  headers: { origin: "https://player.example", "access-control-request-method": "GET" },
});
row("SI key over http on a public host", si, err(400, "https-required"), {
  origin: "http://spi.example",
  headers: key(KEY),
});
row("SI without a key over http on a public host", si, openSi, { origin: "http://spi.example" });
row("SI key over https", si, keyedSi, { origin: "https://spi.example", headers: key(KEY) });
row("SI key over http on localhost", si, keyedSi, {
  origin: "http://localhost",
  headers: key(KEY),
});

// PI (seed §4.1, §5, §7): authentication first, then parameters, then window and service.
const TODAY = "20261123";
row("PI without a key", pi("news", TODAY), { ...err(401, "key-required") });
row("PI HEAD without a key", pi("news", TODAY), err(401, "key-required"), { method: "HEAD" });
row("PI with an invalid key", pi("news", TODAY), err(403, "key-invalid"), {
  headers: key("wrong-key-0000000000"),
});
for (const service of ["bern", "klassik", "lounge", "news", "pop"]) {
  row(`PI ${service} today`, pi(service, TODAY), piOk(service, TODAY), { headers: key(KEY) });
}
row("PI HEAD with a valid key", pi("news", TODAY), piOk("news", TODAY), {
  method: "HEAD",
  headers: key(SECOND_KEY),
});
row("PI POST without a key", pi("news", TODAY), err(405, "method-not-allowed", false), {
  method: "POST",
});
row("PI OPTIONS (preflight): answered, the GET still needs a key", pi("news", TODAY), preflight, {
  method: "OPTIONS",
});
row("PI unknown service", pi("jazz", TODAY), err(404, "not-found"), { headers: key(KEY) });
row("PI unknown service without a key", pi("jazz", TODAY), err(401, "key-required"));
for (const date of [
  "2026112",
  "202611230",
  "20261131",
  "20260229",
  "2026-11-23",
  "abcdefgh",
  "",
  "2026112３",
]) {
  row(`PI malformed date "${date}"`, pi("news", encodeURI(date)), err(400, "bad-request"), {
    headers: key(KEY),
  });
  row(
    `PI malformed date "${date}" without a key`,
    pi("news", encodeURI(date)),
    err(401, "key-required"),
  );
}
row("PI with a query", `${pi("news", TODAY)}?day=1`, err(400, "bad-request"), {
  headers: key(KEY),
});
row("PI with a query, unknown service", `${pi("jazz", TODAY)}?x`, err(400, "bad-request"), {
  headers: key(KEY),
});
row("PI with a query without a key", `${pi("news", TODAY)}?day=1`, err(401, "key-required"));
row(
  "PI under another host literal",
  `/radiodns/spi/3.1/id/rdns.other.example/news/${TODAY}_PI.xml`,
  notFound,
  {
    headers: key(KEY),
  },
);
row("PI key over http on a public host", pi("news", TODAY), err(400, "https-required"), {
  origin: "http://spi.example",
  headers: key(KEY),
});
row("PI without a key over http on a public host", pi("news", TODAY), err(401, "key-required"), {
  origin: "http://spi.example",
});
row("PI key over https", pi("news", TODAY), piOk("news", TODAY), {
  origin: "https://spi.example",
  headers: key(KEY),
});

// A service on its own Authoritative FQDN: its PI is there, under its own serviceIdentifier,
// and nowhere under the provider's radiodnsHost; the others stay where they were.
{
  const { fqdn, serviceIdentifier } = OWN_HOST;
  const own = (date: string) => pi(serviceIdentifier, date, fqdn);
  const ownOk: Expected = { status: 200, file: own(TODAY).slice(1), vary: true };
  const setup = "ownHost";
  row("own host: PI under its FQDN", own(TODAY), ownOk, { setup, headers: key(KEY) });
  row("own host: PI HEAD under its FQDN", own(TODAY), ownOk, {
    setup,
    method: "HEAD",
    headers: key(KEY),
  });
  row("own host: PI under its FQDN without a key", own(TODAY), err(401, "key-required"), {
    setup,
  });
  row("own host: PI under its FQDN, outside the window", own("20261201"), err(404, "not-found"), {
    setup,
    headers: key(KEY),
  });
  row("own host: PI by its DAB bearer", byBearer("dab/4e1/4fe1/4e03/0", TODAY), ownOk, {
    setup,
    headers: key(KEY),
  });
  row("own host: its id under the provider's host", pi("klassik", TODAY), err(404, "not-found"), {
    setup,
    headers: key(KEY),
  });
  row(
    "own host: its serviceIdentifier under the provider's host",
    pi(serviceIdentifier, TODAY),
    err(404, "not-found"),
    { setup, headers: key(KEY) },
  );
  row("own host: its id under its FQDN", pi("klassik", TODAY, fqdn), err(404, "not-found"), {
    setup,
    headers: key(KEY),
  });
  row("own host: another service under its FQDN", pi("news", TODAY, fqdn), err(404, "not-found"), {
    setup,
    headers: key(KEY),
  });
  row(
    "own host: another service under the provider's host",
    pi("news", TODAY),
    piOk("news", TODAY),
    {
      setup,
      headers: key(KEY),
    },
  );
}

// The window: today−7 … today+7 in Zurich at request time; the build published ±8.
const windowRows: [SetupName, string, number][] = [
  ["build", "20261115", 404],
  ["build", "20261116", 200],
  ["build", "20261130", 200],
  ["build", "20261201", 404],
  ["beforeMidnight", "20261115", 404],
  ["beforeMidnight", "20261116", 200],
  ["beforeMidnight", "20261130", 200],
  ["beforeMidnight", "20261201", 404],
  ["afterMidnight", "20261116", 404],
  ["afterMidnight", "20261117", 200],
  ["afterMidnight", "20261201", 200],
  ["afterMidnight", "20261202", 404],
  ["beforeEarlierMidnight", "20261114", 404],
  ["beforeEarlierMidnight", "20261115", 200],
  ["beforeEarlierMidnight", "20261129", 200],
  ["beforeEarlierMidnight", "20261130", 404],
  ["afterEarlierMidnight", "20261115", 404],
  ["afterEarlierMidnight", "20261116", 200],
  ["afterEarlierMidnight", "20261130", 200],
  ["afterEarlierMidnight", "20261201", 404],
];
for (const [setup, date, status] of windowRows) {
  const expected = status === 200 ? piOk("pop", date) : err(404, "not-found");
  row(`window ${setup} ${date}`, pi("pop", date), expected, { setup, headers: key(KEY) });
}

// The deployment's secret replaces the build's digests.
row("override: the build's key no longer works", si, err(403, "key-invalid"), {
  setup: "override",
  headers: key(KEY),
});
row("override: the secret's key gets the keyed SI", si, keyedSi, {
  setup: "override",
  headers: key(OVERRIDE_KEY),
});
row("override: the secret's key gets PI", pi("news", TODAY), piOk("news", TODAY), {
  setup: "override",
  headers: key(OVERRIDE_KEY),
});

// Conditional requests (RFC 9110 §13), like a CDN revalidating: the rules answer 304 when the
// stored file's validators match, after the key checks, and never across representations.
const notModified = (ok: Expected, withoutLastModified?: number): Expected => ({
  ...ok,
  status: 304,
  ...(withoutLastModified && { withoutLastModified }),
});
const LONG_AGO = "Thu, 01 Jan 1970 00:00:00 GMT";
const piToday = pi("news", TODAY);
const piProbe = "PI news today";
row("SI If-None-Match its ETag", si, notModified(openSi), {
  headers: { "if-none-match": "{etag}" },
  probe: "SI without a key",
});
row("SI HEAD If-None-Match its ETag", si, notModified(openSi), {
  method: "HEAD",
  headers: { "if-none-match": "{etag}" },
  probe: "SI without a key",
});
row("SI If-None-Match its weak ETag", si, notModified(openSi), {
  headers: { "if-none-match": "W/{etag}" },
  probe: "SI without a key",
});
row("SI If-None-Match a list holding its ETag", si, notModified(openSi), {
  headers: { "if-none-match": '"other", {etag} ,W/"x"' },
  probe: "SI without a key",
});
row("SI If-None-Match *", si, notModified(openSi), { headers: { "if-none-match": "*" } });
row("SI If-None-Match another ETag", si, openSi, { headers: { "if-none-match": '"0a1b2c"' } });
row("SI with a key, If-None-Match the open SI's ETag: the keyed SI", si, keyedSi, {
  headers: { ...key(KEY), "if-none-match": "{etag}" },
  probe: "SI without a key",
});
row("SI with a key, If-None-Match the keyed SI's ETag", si, notModified(keyedSi), {
  headers: { ...key(SECOND_KEY), "if-none-match": "{etag}" },
  probe: "SI with a valid key",
});
row("SI with an invalid key, If-None-Match *", si, err(403, "key-invalid"), {
  headers: { ...key("wrong-key-0000000000"), "if-none-match": "*" },
});
row("SI POST If-None-Match *", si, err(405, "method-not-allowed", false), {
  method: "POST",
  headers: { "if-none-match": "*" },
});
row("PI If-None-Match its ETag", piToday, notModified(piOk("news", TODAY)), {
  headers: { ...key(KEY), "if-none-match": "{etag}" },
  probe: piProbe,
});
row("PI HEAD If-None-Match its ETag", piToday, notModified(piOk("news", TODAY)), {
  method: "HEAD",
  headers: { ...key(KEY), "if-none-match": "{etag}" },
  probe: piProbe,
});
row("PI without a key, If-None-Match its ETag", piToday, err(401, "key-required"), {
  headers: { "if-none-match": "{etag}" },
  probe: piProbe,
});
row("PI If-Modified-Since its Last-Modified", piToday, notModified(piOk("news", TODAY), 200), {
  headers: { ...key(KEY), "if-modified-since": "{last-modified}" },
  probe: piProbe,
});
row("PI If-Modified-Since long ago", piToday, piOk("news", TODAY), {
  headers: { ...key(KEY), "if-modified-since": LONG_AGO },
});
row("PI If-None-Match another ETag wins over If-Modified-Since", piToday, piOk("news", TODAY), {
  headers: { ...key(KEY), "if-none-match": '"0a1b2c"', "if-modified-since": "{last-modified}" },
  probe: piProbe,
});

// A secret that holds anything but digests: every keyed request says so, nothing else changes.
const misconfigured = err(503, "keys-misconfigured");
row("broken secret: the secret's key", si, misconfigured, {
  setup: "brokenSecret",
  headers: key(OVERRIDE_KEY),
});
row("broken secret: the build's key", pi("news", TODAY), misconfigured, {
  setup: "brokenSecret",
  headers: key(KEY),
});
row("broken secret: SI without a key", si, openSi, { setup: "brokenSecret" });
row("broken secret: PI without a key", pi("news", TODAY), err(401, "key-required"), {
  setup: "brokenSecret",
});

// The keyed SI is never reachable by a path of its own, however it is spelt: always 404.
const keyedVariants = [
  `/${KEYED_SI_PATH}`,
  "/_keyed/",
  "/_keyed",
  "/_KEYED/radiodns/spi/3.1/SI.xml",
  "/%5fkeyed/radiodns/spi/3.1/SI.xml",
  "/%5Fkeyed/radiodns/spi/3.1/SI.xml",
  "/_keyed%2fradiodns%2fspi%2f3.1%2fSI.xml",
  "/_keyed%2Fradiodns%2Fspi%2F3.1%2FSI.xml",
  "//_keyed/radiodns/spi/3.1/SI.xml",
  "///_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/../../../_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/%2e%2e/%2e%2e/%2e%2e/_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/%2E%2E/%2E%2E/%2E%2E/_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/.%2e/.%2e/.%2e/_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/%252e%252e/%252e%252e/%252e%252e/_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/..%2f..%2f..%2f_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/..%5c..%5c..%5c_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns\\spi\\3.1\\..\\..\\..\\_keyed\\radiodns\\spi\\3.1\\SI.xml",
  "/\\_keyed\\radiodns\\spi\\3.1\\SI.xml",
  "/radiodns/spi/3.1/SI.xml/../../../../_keyed/radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/SI.xml/..%2f..%2f..%2f..%2f_keyed/radiodns/spi/3.1/SI.xml",
  `/radiodns/spi/3.1/id/${HOST}/news/../../../../../_keyed/radiodns/spi/3.1/SI.xml`,
  "/_keyed/radiodns/spi/3.1/SI.xml?",
  "/_keyed/radiodns/spi/3.1/SI.xml#x",
  "/_keyed/radiodns/spi/3.1/SI.xml%00",
  "/_keyed/radiodns/spi/3.1/./SI.xml",
];
// Neither are other spellings of the open paths, the build's own files, or anything else.
const otherPaths = [
  "/",
  "/radiodns/spi/3.1/",
  "/radiodns/spi/3.1/SI.xml/",
  "/radiodns/spi/3.1//SI.xml",
  "//radiodns/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/si.xml",
  "/RADIODNS/spi/3.1/SI.xml",
  "/radiodns/spi/3.1/SI.XML",
  "/radiodns/spi/3.1/SI%2exml",
  "/radiodns/spi/3.1/%53I.xml",
  "/radiodns/spi/3.1/SI.xml%00",
  "/radiodns/spi/3.1/SI.xml;x=1",
  "/radiodns%2fspi%2f3.1%2fSI.xml",
  `/radiodns/spi/3.1/id/${HOST}/news/`,
  `/radiodns/spi/3.1/id/${HOST}/news/${TODAY}_PI.xml/`,
  `/radiodns/spi/3.1/id/${HOST.toUpperCase()}/news/${TODAY}_PI.xml`,
  `/radiodns/spi/3.1/id/${HOST}/news/${TODAY}_pi.xml`,
  `/radiodns/spi/3.1/id/${HOST}/news/x/${TODAY}_PI.xml`,
  `/radiodns/spi/3.1/id/${HOST}//${TODAY}_PI.xml`,
  // URL parsing resolves the dot segment: /radiodns/spi/3.1/id/<host>/<date>_PI.xml, no route.
  `/radiodns/spi/3.1/id/${HOST}/%2e%2e/${TODAY}_PI.xml`,
  "/_worker.js",
  "/_routes.json",
  "/wrangler.jsonc",
  "/.assetsignore",
  "/_spi-static/state.json",
];
for (const target of [...keyedVariants, ...otherPaths]) {
  row(`404 ${target} with a key`, target, notFound, { headers: key(KEY) });
  row(`404 ${target} without a key`, target, notFound);
}
row("404 keyed path HEAD with a key", `/${KEYED_SI_PATH}`, notFound, {
  method: "HEAD",
  headers: key(KEY),
});
row("404 keyed path POST with a key", `/${KEYED_SI_PATH}`, notFound, {
  method: "POST",
  headers: key(KEY),
});

// Spellings that URL parsing turns into the SI path itself: the SI rules apply, nothing more.
for (const target of [
  "/radiodns/spi/3.1/./SI.xml",
  "/radiodns/spi/3.1/%2e/SI.xml",
  "/radiodns/spi/3.1/id/../SI.xml",
]) {
  row(`normalised ${target} without a key`, target, openSi);
  row(`normalised ${target} with a key`, target, keyedSi, { headers: key(KEY) });
}

// PI by bearer (TS 102 818 §10.3, ServiceIdentifiers of TS 103 270): the same file and the
// same rules as the id/ path of the service that has the bearer.
const BEARERS: [string, string][] = [
  ["dab/4e1/4fe1/4e01/0", "news"],
  ["fm/4e1/4e01/09580", "news"],
  ["fm/ch/4e01/09580", "news"],
  ["dab/4e1/4fe1/4e02/0", "pop"],
  ["fm/4e1/4e02/10170", "pop"],
  ["fm/ch/4e02/10170", "pop"],
  ["dab/4e1/4fe1/4e03/0", "klassik"],
  ["dab/4e1/4fe2/4e04/0", "bern"],
];
for (const [bearer, service] of BEARERS) {
  row(`PI by ${bearer}`, byBearer(bearer, TODAY), piOk(service, TODAY), { headers: key(KEY) });
  row(`PI by ${bearer} without a key`, byBearer(bearer, TODAY), err(401, "key-required"));
}
const NEWS_DAB = "dab/4e1/4fe1/4e01/0";
const POP_FM = "fm/4e1/4e02/10170";
row("PI by bearer HEAD", byBearer(NEWS_DAB, TODAY), piOk("news", TODAY), {
  method: "HEAD",
  headers: key(KEY),
});
row("PI by bearer with an invalid key", byBearer(NEWS_DAB, TODAY), err(403, "key-invalid"), {
  headers: key("wrong-key-0000000000"),
});
row("PI by bearer POST", byBearer(NEWS_DAB, TODAY), err(405, "method-not-allowed", false), {
  method: "POST",
  headers: key(KEY),
});
row("PI by bearer with a query", `${byBearer(POP_FM, TODAY)}?x=1`, err(400, "bad-request"), {
  headers: key(KEY),
});
row("PI by bearer, malformed date", byBearer(POP_FM, "20261131"), err(400, "bad-request"), {
  headers: key(KEY),
});
row(
  "PI by bearer key over http on a public host",
  byBearer(POP_FM, TODAY),
  err(400, "https-required"),
  {
    origin: "http://spi.example",
    headers: key(KEY),
  },
);
row("PI by bearer key over https", byBearer(POP_FM, TODAY), piOk("pop", TODAY), {
  origin: "https://spi.example",
  headers: key(KEY),
});
for (const [date, status] of [
  ["20261115", 404],
  ["20261116", 200],
  ["20261130", 200],
  ["20261201", 404],
] as const) {
  const expected = status === 200 ? piOk("pop", date) : err(404, "not-found");
  row(`PI by bearer, window ${date}`, byBearer(POP_FM, date), expected, { headers: key(KEY) });
}
row("PI by bearer, override key", byBearer(NEWS_DAB, TODAY), piOk("news", TODAY), {
  setup: "override",
  headers: key(OVERRIDE_KEY),
});
// Well-formed ServiceIdentifiers that are not ours, in case or zero padding receivers do not
// send (hex is lower case, a frequency has 5 digits, paths are case-sensitive: §10.5.1), or
// climbing out: an unknown service, after the key check like any other.
for (const bearer of [
  "dab/4e1/4fe1/4e09/0",
  "dab/4e1/4fe1/4e01/1",
  "fm/4e1/4e02/10180",
  "fm/de/4e02/10170",
  "dab/4E1/4FE1/4E01/0",
  "dab/4e1/4FE1/4e01/0",
  "fm/4E1/4E02/10170",
  "fm/CH/4e02/10170",
  "fm/4e1/4e01/9580",
  "fm/4e1/4e01/095800",
  "dab/4e1/04fe1/4e01/0",
  "dab/4e1/4fe1/04e01/0",
  "dab/04e1/4fe1/4e01/0",
  "dab/4e1/4fe1/4e01/00",
  "dab/%34e1/4fe1/4e01/0",
  "fm/4e1/4e02/10170%20",
  "dab/4e1/4fe1/..%2f..%2f..%2f_keyed/0",
  "fm/..%2f..%2f_keyed/4e02/10170",
]) {
  row(`PI by unknown bearer ${bearer}`, byBearer(bearer, TODAY), err(404, "not-found"), {
    headers: key(KEY),
  });
  row(
    `PI by unknown bearer ${bearer} without a key`,
    byBearer(bearer, TODAY),
    err(401, "key-required"),
  );
}
// Not a ServiceIdentifier at all: no route.
for (const target of [
  byBearer("DAB/4e1/4fe1/4e01/0", TODAY),
  byBearer("FM/4e1/4e02/10170", TODAY),
  byBearer("dab/4e1/4fe1/4e01", TODAY),
  byBearer("dab/4e1/4fe1/4e01/0/0", TODAY),
  byBearer("fm/4e1/4e02", TODAY),
  byBearer("fm/4e1/4e02/10170/0", TODAY),
  byBearer("fm/4e1//10170", TODAY),
  byBearer("dab/4e1/4fe1/4e01/0/", TODAY),
  byBearer("am/4e1/4e02/10170", TODAY),
  byBearer("dab.4e1.4fe1.4e01.0", TODAY),
  byBearer("dab/4e1/4fe1/4e01%2f0", TODAY),
  `/radiodns/spi/3.1/${NEWS_DAB}/${TODAY}_pi.xml`,
  `/radiodns/spi/3.1/${NEWS_DAB}/${TODAY}_PI.xml/`,
  `/radiodns/spi/3.1/${NEWS_DAB}/`,
  `/radiodns/spi/3.1/${NEWS_DAB}`,
  `/radiodns/spi/3.1//${NEWS_DAB}/${TODAY}_PI.xml`,
  `/radiodns/spi/3.1/${NEWS_DAB}/../../../../../../_keyed/radiodns/spi/3.1/SI.xml`,
  `/radiodns/spi/3.1/${NEWS_DAB}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/_keyed/radiodns/spi/3.1/SI.xml`,
  `/radiodns/spi/3.1/${NEWS_DAB}/..%2f..%2f..%2f..%2f..%2f..%2f_keyed/radiodns/spi/3.1/SI.xml`,
  `/radiodns/spi/3.1/${NEWS_DAB}\${TODAY}_PI.xml`,
  `/_keyed/radiodns/spi/3.1/${NEWS_DAB}/${TODAY}_PI.xml`,
]) {
  row(`404 ${target} with a key`, target, notFound, { headers: key(KEY) });
  row(`404 ${target} without a key`, target, notFound);
}

// Open PI: PI by either path without a key; the keyed SI still needs one.
row("open PI: PI without a key", pi("news", TODAY), piOpen("news", TODAY), { setup: "openPi" });
row("open PI: PI by bearer without a key", byBearer(POP_FM, TODAY), piOpen("pop", TODAY), {
  setup: "openPi",
});
row(
  "open PI: PI by bearer over http on a public host",
  byBearer(NEWS_DAB, TODAY),
  piOpen("news", TODAY),
  {
    setup: "openPi",
    origin: "http://spi.example",
  },
);
row("open PI: PI with a valid key", pi("news", TODAY), piOk("news", TODAY), {
  setup: "openPi",
  headers: key(KEY),
});
row("open PI: PI with an invalid key", byBearer(NEWS_DAB, TODAY), err(403, "key-invalid"), {
  setup: "openPi",
  headers: key("wrong-key-0000000000"),
});
row("open PI: key over http on a public host", pi("news", TODAY), err(400, "https-required"), {
  setup: "openPi",
  origin: "http://spi.example",
  headers: key(KEY),
});
row("open PI: window", byBearer(POP_FM, "20261201"), openErr(404, "not-found"), {
  setup: "openPi",
});
row("open PI: malformed date", pi("pop", "2026113"), openErr(400, "bad-request"), {
  setup: "openPi",
});
row("open PI: unknown bearer", byBearer("dab/4e1/4fe1/4e09/0", TODAY), openErr(404, "not-found"), {
  setup: "openPi",
});
row(
  "open PI: If-None-Match its ETag",
  pi("news", TODAY),
  { ...piOpen("news", TODAY), status: 304 },
  {
    setup: "openPi",
    headers: { "if-none-match": "{etag}" },
    probe: "open PI: PI without a key",
  },
);
row("open PI: OPTIONS (preflight)", pi("news", TODAY), preflight, {
  setup: "openPi",
  method: "OPTIONS",
});
row("open PI: SI without a key", si, openSi, { setup: "openPi" });
row("open PI: SI with a key", si, keyedSi, { setup: "openPi", headers: key(KEY) });
row("open PI: keyed SI path", `/${KEYED_SI_PATH}`, notFound, { setup: "openPi" });

// PI-shaped paths whose service segment tries to climb out: just an unknown service.
for (const service of ["..%2f..%2f..%2f..%2f..%2f_keyed", "%6eews", "NEWS", "news%20"]) {
  row(`PI service "${service}"`, pi(service, TODAY), err(404, "not-found"), { headers: key(KEY) });
  row(`PI service "${service}" without a key`, pi(service, TODAY), err(401, "key-required"));
}

export const MATRIX: readonly MatrixRow[] = rows;

/** What is compared between the three runs: status, the headers that matter, the body. */
export interface Observed {
  status: number;
  headers: Record<string, string | null>;
  body: string;
  /** The answer's validators as sent: they differ between the ways (not compared). */
  validators: Validators;
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export const HEADERS_THAT_MATTER = [
  "content-type",
  "cache-control",
  "vary",
  "allow",
  "www-authenticate",
  "x-content-type-options",
  "content-length",
  "access-control-allow-origin",
  "access-control-expose-headers",
  "access-control-allow-methods",
  "access-control-allow-headers",
  "access-control-max-age",
] as const;

/** Every request asks for the bytes as stored, so Content-Length survives workerd's transport. */
export const REQUEST_DEFAULTS = { "accept-encoding": "identity" } as const;

/** The row's headers, with `{etag}` and `{last-modified}` taken from its probe's answer. */
export function headersOf(row: MatrixRow, seen: Map<MatrixRow, Observed>): Record<string, string> {
  const validators = row.probe ? seen.get(row.probe)?.validators : undefined;
  if (row.probe && !validators) throw new Error(`${row.name}: its probe has not been sent`);
  const fill = (value: string) =>
    value
      .replace("{etag}", validators?.etag ?? '"no-etag"')
      // Without one (workerd) a date the file cannot be older than: never 304, as expected.
      .replace("{last-modified}", validators?.lastModified ?? "Sat, 01 Jan 2000 00:00:00 GMT");
  return {
    ...REQUEST_DEFAULTS,
    ...Object.fromEntries(Object.entries(row.headers).map(([name, value]) => [name, fill(value)])),
  };
}

/** ETag kinds (not values) are compared between ways; Content-Length of error bodies is not. */
export function observeParts(status: number, headers: Headers, body: string): Observed {
  const etag = headers.get("etag");
  const kind = etag === null ? null : etag.startsWith("W/") ? "weak" : "strong";
  const matter = Object.fromEntries(
    HEADERS_THAT_MATTER.map((name) => [name, headers.get(name)]),
  ) as Record<string, string | null>;
  if (status !== 200) matter["content-length"] = null;
  return {
    status,
    headers: { ...matter, etag: kind },
    body,
    validators: { etag, lastModified: headers.get("last-modified") },
  };
}

export async function observe(response: Response): Promise<Observed> {
  return observeParts(response.status, response.headers, await response.text());
}
