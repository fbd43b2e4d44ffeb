/**
 * The part of the Fetch and URL standards the edge rules use (Request, Response, Headers, URL),
 * for njs 0.7 (Debian 12's), which has none of them. Like `createEdgeWorker`, this function is
 * written into the nginx module as source text (njsModule.ts), so it refers to nothing outside
 * itself; the tests run it in Node against the real classes.
 *
 * URL parsing follows the WHATWG URL standard for http and https (what the worker's runtime
 * does before the rules see a path): `\` is a separator, dot segments (also `%2e`) are
 * resolved, characters outside the path and query sets are percent-encoded, the fragment goes.
 * Hosts are taken as plain names or IP literals: the adapter only ever passes those.
 */

/**
 * A document nginx sends itself (njsAdapter.ts): the adapter stats it, the rules decide on its
 * validators and pass it on as the body with its length, and nginx sends it from the file
 * instead of njs copying it (the worker's bytes, without reading them into JavaScript).
 * `read()` gives the bytes for anything that looks inside.
 */
export interface FileBody {
  /** Path under the served folder, `/` first, decoded. */
  readonly path: string;
  readonly byteLength: number;
  read(): Uint8Array;
}

export interface FetchApi {
  Headers: typeof Headers;
  Request: typeof Request;
  Response: typeof Response;
  URL: typeof URL;
}

export function createFetchApi(): FetchApi {
  const DEFAULT_PORTS: Record<string, string> = { "http:": "80", "https:": "443" };
  const SINGLE_DOT = /^(\.|%2e)$/i;
  const DOUBLE_DOT = /^(\.|%2e)(\.|%2e)$/i;
  const HOST = /^([a-z0-9._~-]+|\[[0-9a-f:.]+\])$/;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();

  const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*$/;
  /** Printable ASCII that the path (or the query) percent-encodes all the same, by code. */
  const PATH_UNSAFE = '"#<>?`{}';
  const QUERY_UNSAFE = "\"#<>'";

  function unsafeCode(code: number, unsafe: string): boolean {
    return code <= 0x20 || code >= 0x7f || unsafe.indexOf(String.fromCharCode(code)) !== -1;
  }

  /**
   * Whether `text` has a character to percent-encode. First natively: what `encodeURI` leaves
   * as it is has no control, space, non-ASCII, `"`, `<`, `>`, `` ` ``, `{` or `}`, so only the rest
   * of `unsafe` is left to look for (njs interprets the loop below at some 0.2 µs a character;
   * this halves a URL parse). Otherwise a loop over character codes, not a regular expression:
   * njs scans a string with one some ten times slower.
   */
  function needsEncoding(text: string, unsafe: string): boolean {
    let plain = false;
    try {
      plain = encodeURI(text) === text;
    } catch {
      // A lone surrogate: the loop decides.
    }
    if (plain) {
      let found = false;
      for (let u = 0; u < unsafe.length; u++) {
        if (text.indexOf(unsafe.charAt(u)) !== -1) found = true;
      }
      if (!found) return false;
    }
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code <= 0x20 || code >= 0x7f || (code < 0x7e && unsafeCode(code, unsafe))) return true;
    }
    return false;
  }

  /** Percent-encodes, as UTF-8, every code point outside printable ASCII and those in `unsafe`. */
  function percentEncode(text: string, unsafe: string): string {
    if (!needsEncoding(text, unsafe)) return text;
    let out = "";
    for (const char of text) {
      if (!unsafeCode(char.charCodeAt(0), unsafe)) {
        out += char;
        continue;
      }
      for (const byte of encoder.encode(char)) {
        out += `%${byte < 16 ? "0" : ""}${byte.toString(16).toUpperCase()}`;
      }
    }
    return out;
  }

  /** Whether `part` may be a dot segment: the regular expressions run only then (njs: slow). */
  function maybeDots(part: string): boolean {
    return part.length <= 6 && (part === "." || part === ".." || part.indexOf("%") !== -1);
  }

  /** The path segments of a special URL's path, dot segments resolved (WHATWG "path state"). */
  function parsePath(path: string, base: string[]): string[] {
    const segments = base.slice();
    const clean = !needsEncoding(path, PATH_UNSAFE);
    // Not split(/[/\\]/): njs splits by a regular expression some hundred times slower.
    const parts = (path.indexOf("\\") === -1 ? path : path.replace(/\\/g, "/")).split("/");
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] as string;
      const last = i === parts.length - 1;
      if (maybeDots(part) && DOUBLE_DOT.test(part)) {
        segments.pop();
        if (last) segments.push("");
      } else if (maybeDots(part) && SINGLE_DOT.test(part)) {
        if (last) segments.push("");
      } else segments.push(clean ? part : percentEncode(part, PATH_UNSAFE));
    }
    return segments;
  }

  interface Parts {
    protocol: string;
    hostname: string;
    port: string;
    segments: string[];
    query: string | null;
  }

  function invalid(input: string): TypeError {
    return new TypeError(`Invalid URL: ${input}`);
  }

  function parseAuthority(protocol: string, authority: string, input: string) {
    const host = authority.slice(authority.lastIndexOf("@") + 1);
    const match = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host);
    const hostname = (match?.[1] ?? "").toLowerCase();
    if (match === null || !HOST.test(hostname)) throw invalid(input);
    const digits = match[2] ?? "";
    const port = digits === "" ? "" : String(Number(digits));
    return { hostname, port: port === DEFAULT_PORTS[protocol] ? "" : port };
  }

  function isSlash(text: string, at: number): boolean {
    const code = text.charCodeAt(at);
    return code === 0x2f || code === 0x5c;
  }

  /** The first `/` or `\\` at or after `from`, or -1. */
  function slashAt(text: string, from: number): number {
    const slash = text.indexOf("/", from);
    const backslash = text.indexOf("\\", from);
    return backslash === -1 || (slash !== -1 && slash < backslash) ? slash : backslash;
  }

  /** String operations first, regular expressions only where needed: njs runs those slowly. */
  function parse(raw: string, base: Parts | undefined): Parts {
    // WHATWG: leading and trailing C0 controls and spaces go, tabs and newlines anywhere.
    const padded = raw.charCodeAt(0) <= 0x20 || raw.charCodeAt(raw.length - 1) <= 0x20;
    const trimmed = padded ? raw.replace(/^[^\x21-\uffff]+|[^\x21-\uffff]+$/g, "") : raw;
    const broken =
      trimmed.indexOf("\t") !== -1 || trimmed.indexOf("\n") !== -1 || trimmed.indexOf("\r") !== -1;
    const input = broken ? trimmed.replace(/[\t\n\r]/g, "") : trimmed;
    const hash = input.indexOf("#");
    const withoutHash = hash === -1 ? input : input.slice(0, hash);
    const question = withoutHash.indexOf("?");
    const query = question === -1 ? null : withoutHash.slice(question + 1);
    let rest = question === -1 ? withoutHash : withoutHash.slice(0, question);
    const colon = rest.indexOf(":");
    const scheme = colon > 0 && SCHEME.test(rest.slice(0, colon)) ? rest.slice(0, colon) : null;
    let protocol: string;
    let authority: { hostname: string; port: string };
    let segments: string[];
    if (scheme !== null) {
      protocol = `${scheme.toLowerCase()}:`;
      if (DEFAULT_PORTS[protocol] === undefined) throw invalid(raw);
      let start = colon + 1;
      while (isSlash(rest, start)) start++;
      rest = rest.slice(start);
      const end = slashAt(rest, 0);
      authority = parseAuthority(protocol, end === -1 ? rest : rest.slice(0, end), raw);
      segments = end === -1 ? [""] : parsePath(rest.slice(end + 1), []);
    } else if (base === undefined) {
      throw invalid(raw);
    } else if (isSlash(rest, 0) && isSlash(rest, 1)) {
      // Scheme-relative (another host): the rules never make one; refused rather than guessed.
      throw invalid(raw);
    } else {
      protocol = base.protocol;
      authority = { hostname: base.hostname, port: base.port };
      segments = isSlash(rest, 0)
        ? parsePath(rest.slice(1), [])
        : rest === ""
          ? base.segments.slice()
          : parsePath(rest, base.segments.slice(0, -1));
    }
    const encodedQuery = query === null ? null : percentEncode(query, QUERY_UNSAFE);
    // An empty reference (or a fragment alone) keeps the base's query too.
    const keepsQuery = scheme === null && withoutHash === "" && base !== undefined;
    return {
      protocol,
      hostname: authority.hostname,
      port: authority.port,
      segments,
      query: keepsQuery ? (base as Parts).query : encodedQuery,
    };
  }

  /**
   * Parsed URLs of this request, by input and base: the rules and the asset reader parse the
   * same URL several times, and a parse costs njs far more than a lookup. Each URL is also
   * known by its own href, as a Request made from it gives it on.
   */
  let known: Record<string, Parts> = Object.create(null);
  let knownCount = 0;

  function remember(key: string, parts: Parts): void {
    if (knownCount++ > 64) {
      known = Object.create(null);
      knownCount = 0;
    }
    known[key] = parts;
  }

  function partsOf(input: string, base: string | undefined): Parts {
    const key = base === undefined ? input : `${base}\n${input}`;
    const seen = known[key];
    if (seen !== undefined) return seen;
    const parts = parse(input, base === undefined ? undefined : partsOf(base, undefined));
    remember(key, parts);
    return parts;
  }

  class ShimUrl {
    readonly protocol: string;
    readonly hostname: string;
    readonly port: string;
    readonly pathname: string;
    readonly search: string;
    readonly hash = "";
    readonly href: string;
    /** `?` and the query when there is one, even empty (href keeps a lone `?`, search does not). */
    private readonly query: string;

    constructor(input: string | { href: string }, base?: string | { href: string }) {
      const parts = partsOf(hrefOf(input), base === undefined ? undefined : hrefOf(base));
      this.protocol = parts.protocol;
      this.hostname = parts.hostname;
      this.port = parts.port;
      this.pathname = `/${parts.segments.join("/")}`;
      this.query = parts.query === null ? "" : `?${parts.query}`;
      this.search = this.query === "?" ? "" : this.query;
      this.href = `${this.origin}${this.pathname}${this.query}`;
      if (known[this.href] === undefined) remember(this.href, parts);
    }

    get host(): string {
      return this.port === "" ? this.hostname : `${this.hostname}:${this.port}`;
    }

    get origin(): string {
      return `${this.protocol}//${this.host}`;
    }

    toString(): string {
      return this.href;
    }
  }

  function hrefOf(input: unknown): string {
    if (typeof input === "string") return input;
    const href =
      (input as { href?: unknown; url?: unknown }).href ?? (input as { url?: unknown }).url;
    return String(href ?? input);
  }

  type HeadersInput = ShimHeaders | Record<string, string> | [string, string][] | undefined;

  /** Names folded to lower case; values of a repeated name joined with ", " as Fetch does. */
  class ShimHeaders {
    private readonly values: Record<string, string> = Object.create(null);

    constructor(init?: HeadersInput) {
      if (init instanceof ShimHeaders) {
        init.forEach((value, name) => {
          this.append(name, value);
        });
      } else if (Array.isArray(init)) {
        for (const [name, value] of init) this.append(name, value);
      } else if (init !== undefined && init !== null) {
        for (const name of Object.keys(init)) this.append(name, init[name] as string);
      }
    }

    append(name: string, value: string): void {
      const key = name.toLowerCase();
      const text = String(value).trim();
      const old = this.values[key];
      this.values[key] = old === undefined ? text : `${old}, ${text}`;
    }

    set(name: string, value: string): void {
      this.values[name.toLowerCase()] = String(value).trim();
    }

    get(name: string): string | null {
      return this.values[name.toLowerCase()] ?? null;
    }

    has(name: string): boolean {
      return this.values[name.toLowerCase()] !== undefined;
    }

    delete(name: string): void {
      delete this.values[name.toLowerCase()];
    }

    forEach(callback: (value: string, name: string) => void): void {
      for (const [name, value] of this.entries()) callback(value, name);
    }

    entries(): [string, string][] {
      return Object.keys(this.values)
        .sort()
        .map((name) => [name, this.values[name] as string]);
    }

    [Symbol.iterator]() {
      return this.entries()[Symbol.iterator]();
    }
  }

  const STANDARD_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"];

  class ShimRequest {
    readonly url: string;
    readonly method: string;
    readonly headers: ShimHeaders;

    constructor(input: unknown, init: { method?: string; headers?: HeadersInput } = {}) {
      this.url = new ShimUrl(hrefOf(input)).href;
      const method = init.method ?? "GET";
      this.method = STANDARD_METHODS.includes(method.toUpperCase()) ? method.toUpperCase() : method;
      this.headers = new ShimHeaders(init.headers);
    }
  }

  type BodyInput = string | ArrayBuffer | Uint8Array | FileBody | null | undefined;

  function isFileBody(body: BodyInput): body is FileBody {
    return (
      typeof body === "object" && body !== null && typeof (body as FileBody).read === "function"
    );
  }

  /**
   * A body held whole (the rules only ever answer with documents read completely), or a file
   * nginx sends (FileBody), which `arrayBuffer()` hands on unread.
   */
  class ShimResponse {
    readonly status: number;
    readonly statusText: string;
    readonly headers: ShimHeaders;
    readonly body: { cancel(): Promise<void> } | null;
    readonly file: FileBody | null;
    private held: Uint8Array | null;

    constructor(
      body?: BodyInput,
      init: { status?: number; statusText?: string; headers?: HeadersInput } = {},
    ) {
      this.status = init.status ?? 200;
      this.statusText = init.statusText ?? "";
      this.headers = new ShimHeaders(init.headers);
      if (typeof body === "string" && !this.headers.has("content-type")) {
        this.headers.set("content-type", "text/plain;charset=UTF-8");
      }
      this.file = isFileBody(body) ? body : null;
      this.held =
        body === null || body === undefined
          ? new Uint8Array(0)
          : typeof body === "string"
            ? encoder.encode(body)
            : body instanceof Uint8Array
              ? body
              : isFileBody(body)
                ? null
                : new Uint8Array(body);
      this.body = body === null || body === undefined ? null : { cancel: () => Promise.resolve() };
    }

    get bytes(): Uint8Array {
      if (this.held === null) this.held = (this.file as FileBody).read();
      return this.held;
    }

    get ok(): boolean {
      return this.status >= 200 && this.status < 300;
    }

    arrayBuffer(): Promise<ArrayBuffer> {
      // The rules take only its length and pass it on into their Response: it stays unread.
      if (this.file !== null) return Promise.resolve(this.file as unknown as ArrayBuffer);
      const { buffer, byteOffset, byteLength } = this.bytes;
      const whole = byteOffset === 0 && byteLength === buffer.byteLength;
      return Promise.resolve(
        (whole ? buffer : buffer.slice(byteOffset, byteOffset + byteLength)) as ArrayBuffer,
      );
    }

    text(): Promise<string> {
      return Promise.resolve(decoder.decode(this.bytes));
    }
  }

  // The rules only use what these classes have; the casts say they stand in for the globals.
  return {
    Headers: ShimHeaders as unknown as typeof Headers,
    Request: ShimRequest as unknown as typeof Request,
    Response: ShimResponse as unknown as typeof Response,
    URL: ShimUrl as unknown as typeof URL,
  };
}
