import type { EdgeEnv, EdgeWorker } from "../edge/edgeRules.js";
import type { FetchApi, FileBody } from "./fetchShims.js";

/** The part of njs's request object (`r`, ngx_http_js_module) the adapter uses. */
export interface NjsRequest {
  method: string;
  variables: Record<string, string | undefined>;
  rawHeadersIn: [string, string][];
  headersOut: Record<string, string | number | undefined>;
  status: number;
  sendHeader(): void;
  finish(): void;
  return(status: number, body?: string | Uint8Array): void;
  internalRedirect(uri: string): void;
  error(message: string): void;
}

/** The part of njs's `fs` module (Node's names) the asset reader uses. */
export interface NjsFs {
  openSync(path: string, flags: string): number;
  fstatSync(fd: number): { size: number; mtimeMs: number; isFile(): boolean };
  readSync(
    fd: number,
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): number;
  closeSync(fd: number): void;
}

export interface NjsSettings {
  /** The output folder, absolute: the rules' ASSETS read documents from it. */
  root: string;
  /** What the worker gets as bindings besides ASSETS: API_KEY_SHA256, SPI_FIXED_NOW. */
  env: Omit<EdgeEnv, "ASSETS">;
  /** The variable and named location nginx sends a document from (serverConfig.ts, SEND_FILE). */
  sendFile: string;
}

/**
 * From nginx to the rules and back: njs's `r` becomes the Request the worker would get, the
 * rules' Response goes out through `r`, and ASSETS reads the output folder. Written into the
 * nginx module as source text (njsModule.ts): it refers to nothing outside itself.
 *
 * The URL is the request target exactly as sent (`$request_uri`, not nginx's normalised
 * `$uri`), behind the scheme and Host the client used, so the rules parse the same URL as at
 * the edge. As in the preview, only a client on this machine gets a loopback origin: the rules'
 * exception for keys over plain http then follows the connection, not the Host header.
 */
export function createNjsHandler(
  worker: EdgeWorker,
  api: FetchApi,
  settings: NjsSettings,
  fs: NjsFs,
): (r: NjsRequest) => Promise<void> {
  const HOST = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;
  /**
   * Paths try_files takes literally (no `?`, `$`, spaces): the documents' names under the
   * served folder's. Any other, njs reads and sends itself.
   */
  const NGINX_SENDS = /^[A-Za-z0-9._~/-]+$/;
  const LOOPBACK_HOST = /^(localhost|\[::1\]|127\.[\d.]+)$/i;
  const LOOPBACK_ADDRESS = /^(127\.|::1$|::ffff:127\.)/i;

  function unsafe(segment: string): boolean {
    return segment === "" || segment === "." || segment === ".." || segment.includes("\0");
  }

  /** Reads a file whole through one descriptor. */
  function readFile(path: string, size: number): Uint8Array {
    const fd = fs.openSync(path, "r");
    try {
      // Not zero-filled first: every byte is read over (njs fills a large array slowly).
      const bytes = Buffer.allocUnsafe(size);
      let read = 0;
      let got = 1;
      // No `break`: njs cannot compile one beside the `return` in this try block.
      while (read < size && got > 0) {
        got = fs.readSync(fd, bytes, read, size - read, read);
        read += Math.max(got, 0);
      }
      return bytes.subarray(0, read);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * A file of the output folder, never a path out of it, with nginx's validators for it; its
   * bytes stay on disk (FileBody) for nginx to send. Only stat'ed here: the rules decide on the
   * validators and the length.
   */
  function readAsset(pathname: string): Response {
    let segments: string[];
    try {
      segments = decodeURIComponent(pathname).split("/").slice(1);
    } catch {
      return new api.Response(null, { status: 404 });
    }
    if (segments.length === 0 || segments.some(unsafe)) {
      return new api.Response(null, { status: 404 });
    }
    const path = `/${segments.join("/")}`;
    let fd: number;
    try {
      fd = fs.openSync(`${settings.root}${path}`, "r");
    } catch {
      return new api.Response(null, { status: 404 });
    }
    let size: number;
    let seconds: number;
    try {
      const info = fs.fstatSync(fd);
      if (!info.isFile()) return new api.Response(null, { status: 404 });
      size = info.size;
      seconds = Math.floor(info.mtimeMs / 1000);
    } finally {
      fs.closeSync(fd);
    }
    const file: FileBody = {
      path,
      byteLength: size,
      read: () => readFile(`${settings.root}${path}`, size),
    };
    return new api.Response(file as unknown as BodyInit, {
      headers: {
        // nginx's own ETag for a static file: modification time and size, in hex.
        ETag: `"${seconds.toString(16)}-${size.toString(16)}"`,
        "Last-Modified": new Date(seconds * 1000).toUTCString(),
        "Content-Length": String(size),
      },
    });
  }

  const env: EdgeEnv = {
    ...settings.env,
    ASSETS: {
      fetch: (request: Request) => Promise.resolve(readAsset(new api.URL(request.url).pathname)),
    },
  };

  function bracketed(address: string): string {
    return address.includes(":") ? `[${address}]` : address;
  }

  function originOf(r: NjsRequest): string {
    const v = r.variables;
    const host = v.http_host ?? "";
    let authority = HOST.test(host)
      ? host.toLowerCase()
      : `${bracketed(v.server_addr ?? "")}:${v.server_port}`;
    const hostname = authority.replace(/:\d+$/, "");
    const remote = v.remote_addr ?? "";
    if (LOOPBACK_HOST.test(hostname) && !LOOPBACK_ADDRESS.test(remote)) {
      authority = bracketed(remote);
    }
    return `${v.scheme}://${authority}`;
  }

  async function send(r: NjsRequest, response: Response): Promise<void> {
    r.status = response.status;
    let length: string | null = null;
    response.headers.forEach((value, name) => {
      if (name === "content-length") length = value;
      else r.headersOut[name] = value;
    });
    if (response.body === null) {
      if (length !== null) r.headersOut["Content-Length"] = Number(length);
      r.sendHeader();
      r.finish();
      return;
    }
    const file = (response as unknown as { file: FileBody | null }).file;
    const whole = file === null ? "" : `${settings.root}${file.path}`;
    if (file !== null && response.status === 200 && NGINX_SENDS.test(whole)) {
      // nginx sends the file (serverConfig.ts, SEND_FILE) with its Content-Length and its
      // validators, the ones ETag and Last-Modified were made from: it writes them itself.
      delete r.headersOut.etag;
      delete r.headersOut["last-modified"];
      r.variables[settings.sendFile] = whole;
      r.internalRedirect(`@${settings.sendFile}`);
      return;
    }
    if (file !== null) {
      r.return(response.status, Buffer.from(file.read()));
      return;
    }
    r.return(response.status, Buffer.from(await response.arrayBuffer()));
  }

  return async function handle(r: NjsRequest): Promise<void> {
    // A request nginx refused itself (error_page 400) has no $request_uri: its request line has.
    const target = r.variables.request_uri || (r.variables.request_line ?? "").split(" ")[1] || "/";
    const request = new api.Request(`${originOf(r)}${target.startsWith("/") ? "" : "/"}${target}`, {
      method: r.method,
      headers: r.rawHeadersIn,
    });
    try {
      await send(r, await worker.fetch(request, env));
    } catch (error) {
      r.error(`spi-static rules: ${String(error)}`);
      r.return(500);
    }
  };
}
