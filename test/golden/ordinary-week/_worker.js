// Written by `spi-static build`: do not edit, rebuild instead.
// The SPI 3.1 edge rules (docs/edge-rules.md, "Keys"). Runs first for every request as a
// Cloudflare Pages advanced-mode worker, as a Worker with static assets (run_worker_first), and
// inside `spi-static serve`. Key digests: the API_KEY_SHA256 secret, else the build's below.

function createEdgeWorker(site) {
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
    const [piPrefix, piMiddle] = site.piPathTemplate.split("{service}");
    const piUrlPrefix = `/${piPrefix}`;
    const [piBetween, piSuffix] = piMiddle.split("{date}");
    const [bearerPrefix, bearerMiddle] = site.bearerPiPathTemplate.split("{bearer}");
    const bearerUrlPrefix = `/${bearerPrefix}`;
    const [bearerBetween, bearerSuffix] = bearerMiddle.split("{date}");
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
    function listed(sorted, value) {
        let low = 0;
        let high = sorted.length;
        while (low < high) {
            const middle = (low + high) >>> 1;
            if (sorted[middle] < value)
                low = middle + 1;
            else
                high = middle;
        }
        return sorted[low] === value;
    }
    function bearerService(identifier) {
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
    const LOGO_PATH = /^\/logos\/(provider|services\/[a-z0-9]+|groups\/[a-z][a-z0-9-]*)\/\d+x\d+-[0-9a-f]{16}\.(png|jpg)$/;
    const IMMUTABLE = "public, max-age=31536000, immutable";
    /** Matched on the parsed path exactly: no decoding, no case folding, so every variant is 404. */
    function route(pathname) {
        if (pathname === siUrlPath)
            return { kind: "si" };
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
        if (split < 1 ||
            parts.length !== 2 ||
            parts[1] === "" ||
            !listed(site.hosts, parts[0])) {
            return { kind: "none" };
        }
        return { kind: "pi", service, date };
    }
    /**
     * PI by the bearer a radio tuned to (TS 102 818 §10.3): one table lookup of the exact
     * ServiceIdentifier. A well-formed one that is not ours is an unknown service.
     */
    function bearerRoute(pathname) {
        if (!pathname.startsWith(bearerUrlPrefix) || !pathname.endsWith(bearerSuffix)) {
            return { kind: "none" };
        }
        const rest = pathname.slice(bearerUrlPrefix.length, pathname.length - bearerSuffix.length);
        const split = rest.lastIndexOf(bearerBetween);
        const identifier = rest.slice(0, split);
        if (split < 1 || !BEARER_SHAPE.test(identifier))
            return { kind: "none" };
        const date = rest.slice(split + bearerBetween.length);
        return { kind: "pi", service: bearerService(identifier), date };
    }
    /** TS 102 818 §10.5: `Authorization: ClientIdentifier <key>`; other schemes carry no SPI key. */
    function credential(request) {
        const header = request.headers.get("authorization");
        if (header === null)
            return { kind: "none" };
        const match = /^\s*ClientIdentifier(?:\s+(.*?))?\s*$/is.exec(header);
        if (match === null)
            return { kind: "none" };
        return { kind: "key", key: match[1] ?? "" };
    }
    function isLoopback(hostname) {
        return (hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname));
    }
    /** The secret last parsed and what it gave: a worker reads the same secret on every request. */
    let parsedSecret;
    /**
     * The digests keys are checked against, or what is wrong with the API_KEY_SHA256 secret.
     * Parsed once per secret, not per request: a list of many digests costs one split and one
     * regular expression per entry, which a keyed request then no longer pays.
     */
    function configuredDigests(env) {
        const secret = env.API_KEY_SHA256;
        if (parsedSecret === undefined || parsedSecret.secret !== secret) {
            parsedSecret = { secret, configured: parseSecret(secret) };
        }
        return parsedSecret.configured;
    }
    function parseSecret(secret) {
        if (secret === undefined || secret === null)
            return { digests: site.keyDigests };
        if (typeof secret !== "string")
            return { problem: "API_KEY_SHA256 is not text" };
        const entries = secret.split(/[\s,;]+/).filter((entry) => entry !== "");
        if (entries.length === 0)
            return { digests: site.keyDigests };
        const digests = [];
        for (const [index, entry] of entries.entries()) {
            // `sha256sum` prints "<hex>  -" for its input ("*-" in binary mode): the dash is no entry.
            const dashOfSum = (entry === "-" || entry === "*-") && DIGEST.test(entries[index - 1] ?? "");
            if (DIGEST.test(entry))
                digests.push(entry.toLowerCase());
            else if (!dashOfSum) {
                // Its position only: a plain key pasted by mistake must not be echoed.
                return { problem: `entry ${index + 1} of API_KEY_SHA256 is not a SHA-256 digest` };
            }
        }
        return { digests };
    }
    function sameInConstantTime(a, b) {
        if (a.length !== b.length)
            return false;
        let difference = 0;
        for (let i = 0; i < a.length; i++)
            difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
        return difference === 0;
    }
    /** Every configured digest is compared, without an early exit, so timing tells nothing. */
    async function keyIsValid(key, digests) {
        const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
        const digest = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
        let valid = false;
        for (const candidate of digests)
            valid = sameInConstantTime(digest, candidate) || valid;
        return valid;
    }
    /** An unparsable SPI_FIXED_NOW is ignored: a typo in a test setting must not stop the API. */
    function clock(env) {
        const fixed = env.SPI_FIXED_NOW ? Date.parse(env.SPI_FIXED_NOW) : Number.NaN;
        return Number.isNaN(fixed) ? Date.now() : fixed;
    }
    /** Days since 1970-01-01 of a proleptic Gregorian date (setUTCFullYear: years < 100 too). */
    function epochDay(year, month, day) {
        return Math.round(new Date(0).setUTCFullYear(year, month - 1, day) / DAY_MS);
    }
    function todayInProviderZone(now) {
        const parts = localDate.formatToParts(new Date(now));
        const part = (type) => Number(parts.find((p) => p.type === type)?.value);
        return epochDay(part("year"), part("month"), part("day"));
    }
    /** The requested day, or undefined unless `date` is yyyyMMdd and a calendar date. */
    function requestedDay(date) {
        if (!/^\d{8}$/.test(date))
            return undefined;
        const [year, month, day] = [date.slice(0, 4), date.slice(4, 6), date.slice(6, 8)].map(Number);
        const check = new Date(epochDay(year, month, day) * DAY_MS);
        const valid = check.getUTCFullYear() === year &&
            check.getUTCMonth() === month - 1 &&
            check.getUTCDate() === day;
        return valid ? epochDay(year, month, day) : undefined;
    }
    function escapeXml(text) {
        return text.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
    }
    /** The documented error body: `<error status="404" code="not-found">message</error>`. */
    function failure(request, status, code, message, headers = {}) {
        const body = `<?xml version="1.0" encoding="UTF-8"?>\n` +
            `<error status="${status}" code="${code}">${escapeXml(message)}</error>\n`;
        return respond(request, status, body, {
            "Cache-Control": PRIVATE,
            ...headers,
        });
    }
    function respond(request, status, body, headers) {
        const all = new Headers({
            "Content-Type": XML_TYPE,
            ...NO_SNIFF,
            ...headers,
        });
        return new Response(request.method === "HEAD" ? null : body, { status, headers: all });
    }
    /** The entity tags of an If-None-Match list (RFC 9110 §13.1.2), weak or strong, unquoted. */
    function entityTags(list) {
        return Array.from(list.matchAll(/(?:W\/)?"([^"]*)"|\*/g), (m) => m[0] === "*" ? "*" : `${m[1]}`);
    }
    /**
     * RFC 9110 §13.2.2: If-None-Match (weak comparison) decides when present; otherwise
     * If-Modified-Since against Last-Modified, when the asset store gives one.
     */
    function notModified(request, etag, lastModified) {
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
    async function serveAsset(request, env, path, cacheControl, shared = KEYED, contentType) {
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
        const headers = { "Cache-Control": cacheControl, ...shared };
        if (contentType !== undefined)
            headers["Content-Type"] = contentType;
        const etag = asset.headers.get("etag");
        const lastModified = asset.headers.get("last-modified");
        if (etag !== null)
            headers.ETag = etag;
        if (lastModified !== null)
            headers["Last-Modified"] = lastModified;
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
    function documentStore(env) {
        const bucket = env.DOCUMENTS;
        if (bucket === undefined || bucket === null) {
            if (env.ASSETS === undefined)
                throw new Error("neither ASSETS nor DOCUMENTS is bound");
            return env.ASSETS;
        }
        return {
            async fetch(request) {
                const object = await bucket.get(decodeURIComponent(new URL(request.url).pathname.slice(1)));
                if (object === null)
                    return new Response(null, { status: 404 });
                return new Response(object.body, {
                    headers: { ETag: object.httpEtag, "Last-Modified": object.uploaded.toUTCString() },
                });
            },
        };
    }
    async function handle(request, env) {
        const url = new URL(request.url);
        const target = route(url.pathname);
        if (target.kind === "none")
            return failure(request, 404, "not-found", "No such document.");
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
        const shared = open ? { ...KEYED, ...CORS } : KEYED;
        if (sent.kind === "key" && url.protocol === "http:" && !isLoopback(url.hostname)) {
            // The key travelled in clear text: refuse it, like the public API, so clients fix it.
            return failure(request, 400, "https-required", "Send the API key over HTTPS only.", KEYED);
        }
        const configured = sent.kind === "key" ? configuredDigests(env) : { digests: [] };
        if ("problem" in configured) {
            // No key can be checked: say so (verify reports it) rather than 403 every valid key.
            return failure(request, 503, "keys-misconfigured", `No API key can be checked: ${configured.problem} (64 hex digits each).`, KEYED);
        }
        const valid = sent.kind === "key" && (await keyIsValid(sent.key, configured.digests));
        if (sent.kind === "key" && !valid) {
            return failure(request, 403, "key-invalid", "The API key is not valid.", KEYED);
        }
        if (target.kind === "si") {
            if (valid)
                return serveAsset(request, env, site.keyedSiPath, KEYED_DOCUMENT);
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
            const message = url.search !== ""
                ? "No query parameters are defined."
                : "The date must be a calendar date as yyyyMMdd.";
            return failure(request, 400, "bad-request", message, shared);
        }
        if (Math.abs(day - todayInProviderZone(clock(env))) > site.windowDays) {
            return failure(request, 404, "not-found", `Only dates within ${site.windowDays} days of today are served.`, shared);
        }
        if (target.service === undefined || !listed(site.serviceIds, target.service)) {
            return failure(request, 404, "not-found", "No such service.", shared);
        }
        const path = site.piPathTemplate
            .replace("{service}", target.service)
            .replace("{date}", target.date);
        // Open PI asked without a key is the same for everyone; with a key, the key decided it.
        if (open)
            return serveAsset(request, env, path, OPEN_DOCUMENT, shared);
        return serveAsset(request, env, path, KEYED_DOCUMENT);
    }
    /**
     * The documented XML 503 whatever the ASSETS binding does (missing, throwing, rejecting,
     * answering 5xx or no Response at all): a thrown error would get the platform's HTML page.
     */
    async function answer(request, env) {
        try {
            return await handle(request, env);
        }
        catch {
            return failure(request, 503, "unavailable", "The documents cannot be read just now; try again later.", { ...KEYED, "Retry-After": "60" });
        }
    }
    return { fetch: answer };
}

export default createEdgeWorker({
  "openSiPath": "radiodns/spi/3.1/SI.xml",
  "keyedSiPath": "_keyed/radiodns/spi/3.1/SI.xml",
  "piPathTemplate": "radiodns/spi/3.1/id/{service}/{date}_PI.xml",
  "bearerPiPathTemplate": "radiodns/spi/3.1/{bearer}/{date}_PI.xml",
  "bearerServices": {
    "dab/4e1/4fe2/4e04/0": "rdns.aareradio.example/bern",
    "fm/4e1/4e04/09650": "rdns.aareradio.example/bern",
    "fm/ch/4e04/09650": "rdns.aareradio.example/bern",
    "fm/4e1/4e04/10360": "rdns.aareradio.example/bern",
    "fm/ch/4e04/10360": "rdns.aareradio.example/bern",
    "dab/4e1/4fe1/4e03/0": "rdns.aareradio.example/klassik",
    "dab/4e1/4fe1/4e01/0": "rdns.aareradio.example/news",
    "fm/4e1/4e01/09580": "rdns.aareradio.example/news",
    "fm/ch/4e01/09580": "rdns.aareradio.example/news",
    "dab/4e1/4fe1/4e02/0": "rdns.aareradio.example/pop",
    "fm/4e1/4e02/10170": "rdns.aareradio.example/pop",
    "fm/ch/4e02/10170": "rdns.aareradio.example/pop"
  },
  "serviceIds": [
    "rdns.aareradio.example/bern",
    "rdns.aareradio.example/klassik",
    "rdns.aareradio.example/lounge",
    "rdns.aareradio.example/news",
    "rdns.aareradio.example/pop"
  ],
  "hosts": [
    "rdns.aareradio.example"
  ],
  "openPi": false,
  "timeZone": "Europe/Zurich",
  "windowDays": 7,
  "keyDigests": [
    "e029e09c96a004f68891855d2a9edc8e7fe00268f48ef3adb100fd31539265a2"
  ],
  "openMaxAge": 3600
});
