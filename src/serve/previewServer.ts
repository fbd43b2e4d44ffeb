import { readFile, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type AddressInfo, isIPv4, isIPv6 } from "node:net";
import { join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { WORKER_PATH } from "../edge/edgeFiles.js";
import type { EdgeEnv, EdgeWorker } from "../edge/edgeRules.js";
import { folderAssets } from "./folderAssets.js";

export interface PreviewOptions {
  outDir: string;
  /** 0 picks a free port. */
  port: number;
  host: string;
  /** A fixed clock (UTC ms) for the date window, instead of the system clock. */
  now?: number | undefined;
  /** Like the deployment's API_KEY_SHA256 secret: replaces the digests built into the worker. */
  apiKeySha256?: string | undefined;
  /** Answers paths of its own before the rules see a request (the EPG page of `serve --watch`). */
  routes?: PreviewRoutes | undefined;
}

export interface PreviewRoutes {
  /** True when it answered the request; false hands it to the edge rules. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  close(): void;
}

export interface PreviewServer {
  /** `http://host:port`, as the preview listens. */
  origin: string;
  /** Answers a request through the rules and env the server uses, in process, without the network. */
  ask(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** Fetch refuses to build requests with these methods; the rules see them as an unknown method. */
const FORBIDDEN_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

/**
 * The generated out/_worker.js itself, re-imported whenever a build rewrites it, so the preview
 * always runs the rules that would be deployed. Imported from its text as a data: URL, which
 * is always an ES module: by its path, a project whose package.json says "type": "commonjs"
 * (what `npm init -y` writes) would make Node read the worker as CommonJS and fail on `export`.
 */
function workerLoader(outDir: string) {
  const path = resolve(join(outDir, WORKER_PATH));
  let loaded: { mtime: number; worker: EdgeWorker } | undefined;
  return async function currentWorker(): Promise<EdgeWorker> {
    const { mtimeMs } = await stat(path).catch(() => {
      throw new Error(`${path} does not exist: run \`spi-static build\` first`);
    });
    if (loaded?.mtime !== mtimeMs) {
      const source = await readFile(path);
      const module = (await import(`data:text/javascript;base64,${source.toString("base64")}`)) as {
        default?: Partial<EdgeWorker>;
      };
      if (typeof module.default?.fetch !== "function")
        throw new Error(`${path} has no default export with fetch()`);
      loaded = { mtime: mtimeMs, worker: module.default as EdgeWorker };
    }
    return loaded.worker;
  };
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (a dual-stack socket's view of 127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  const ip = address?.replace(/^::ffff:(?=\d+\.)/i, "");
  return ip === "::1" || (ip !== undefined && isIPv4(ip) && ip.startsWith("127."));
}

/** Any host name the rules could take for loopback (they allow keys over http there). */
function looksLikeLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    isLoopbackAddress(hostname.replace(/^\[|\]$/g, "")) ||
    /^\[::ffff:7f[0-9a-f]{2}:/i.test(hostname)
  );
}

/**
 * The origin the rules see: the client's Host header, as the edge sees it — except that a
 * client that is not on this machine never gets a loopback origin, whatever Host it sends, so
 * the rules' loopback exception (keys over plain http) follows the connection's real address.
 */
export function requestOrigin(
  host: string | undefined,
  remoteAddress: string | undefined,
  fallbackOrigin: string,
): string {
  let origin = fallbackOrigin;
  if (host) {
    try {
      const parsed = new URL(`http://${host}`);
      if (parsed.host === host.toLowerCase() && parsed.pathname === "/") origin = parsed.origin;
    } catch {
      // A malformed Host header: keep the address the server listens on.
    }
  }
  if (isLoopbackAddress(remoteAddress) || !looksLikeLoopback(new URL(origin).hostname))
    return origin;
  const remote = remoteAddress ?? "";
  return `http://${isIPv6(remote) ? `[${remote}]` : remote || "remote.invalid"}`;
}

/** The URL as the client addressed it, so the rules can tell loopback from not. */
function requestUrl(req: IncomingMessage, fallbackOrigin: string): string {
  const origin = requestOrigin(req.headers.host, req.socket.remoteAddress, fallbackOrigin);
  // Concatenated, not resolved against the origin: `//x` stays a path, as at the edge.
  const target = req.url ?? "/";
  return `${origin}${target.startsWith("/") ? target : `/${target}`}`;
}

function toWebRequest(req: IncomingMessage, fallbackOrigin: string): Request {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? "GET";
  return new Request(requestUrl(req, fallbackOrigin), {
    method: FORBIDDEN_METHODS.has(method.toUpperCase()) ? "UNSUPPORTED" : method,
    headers,
  });
}

async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.setHeader(name, value);
  if (response.body === null) {
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), res);
}

function internalError(res: ServerResponse, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  const escaped = message.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(500, {
    "Content-Type": "application/xml; charset=utf-8",
    "Cache-Control": "private, no-store",
  });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<error status="500" code="preview-failed">${escaped}</error>\n`,
  );
}

/**
 * `spi-static serve`: a Node HTTP server that hands every request to out/_worker.js — the same
 * rules Cloudflare runs — with the output folder read in process as the ASSETS binding.
 */
export async function startPreviewServer(options: PreviewOptions): Promise<PreviewServer> {
  const currentWorker = workerLoader(options.outDir);
  await currentWorker();
  const env: EdgeEnv = { ASSETS: folderAssets(options.outDir) };
  if (options.now !== undefined) env.SPI_FIXED_NOW = new Date(options.now).toISOString();
  if (options.apiKeySha256) env.API_KEY_SHA256 = options.apiKeySha256;

  let origin = "";
  const { routes } = options;
  const server = createServer((req, res) => {
    (routes ? routes.handle(req, res) : Promise.resolve(false))
      .then(async (answered) => {
        if (answered) return;
        const worker = await currentWorker();
        await sendWebResponse(await worker.fetch(toWebRequest(req, origin), env), res);
      })
      .catch((error: unknown) => internalError(res, error));
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, resolvePromise);
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  origin = `http://${host}:${address.port}`;
  return {
    origin,
    async ask(request) {
      return (await currentWorker()).fetch(request, env);
    },
    async close() {
      routes?.close();
      server.closeAllConnections();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    },
  };
}
