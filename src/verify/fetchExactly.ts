import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as UTF-8 (U+FFFD for what is not): for checks that look at text. */
  body: string;
  /** The body's bytes, for a reader that must refuse what is not in its encoding. */
  bytes: Buffer;
}

/**
 * The most an SPI document may be: an SI or a PI is kilobytes to a few MB, so a body beyond
 * this is not one, and reading it would only cost memory (a body is held whole to parse it).
 */
export const MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** Why a request was given up: its answer is larger or slower than any SPI document's. */
export class FetchLimitError extends Error {}

export interface FetchLimits {
  /** The whole request, connection to last byte: a server trickling bytes cannot hold it up. */
  timeoutMs: number;
  /** The body's size: the request stops as soon as the answer says or shows it is larger. */
  maxBytes?: number;
}

/**
 * GET with the path sent exactly as given. fetch() and URL normalise `..`, `%2e%2e` and
 * backslashes away before sending, which would hide the very traversal attempts a client (or
 * an attacker) can make against the keyed SI. Bounded in time and size (FetchLimits), so no
 * server can hang or exhaust an unattended run; redirects are answers, never followed.
 */
export function fetchExactly(
  origin: URL,
  rawPath: string,
  headers: Record<string, string>,
  limits: FetchLimits,
): Promise<RawResponse> {
  const { timeoutMs, maxBytes = MAX_DOCUMENT_BYTES } = limits;
  const request = origin.protocol === "https:" ? httpsRequest : httpRequest;
  const url = `${origin.origin}${rawPath}`;
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new FetchLimitError(`too large: ${url} answers with over ${formatBytes(maxBytes)}`);
    const req = request(
      {
        protocol: origin.protocol,
        hostname: origin.hostname.replace(/^\[|\]$/g, ""),
        port: origin.port || undefined,
        path: rawPath,
        method: "GET",
        headers: { "User-Agent": "spi-static verify", ...headers },
      },
      (res) => {
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > maxBytes) {
          req.destroy(tooLarge());
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        res.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > maxBytes) req.destroy(tooLarge());
          else chunks.push(chunk);
        });
        res.on("end", () => {
          clearTimeout(deadline);
          const bytes = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: bytes.toString("utf8"),
            bytes,
          });
        });
        res.on("error", fail);
      },
    );
    const deadline = setTimeout(
      () =>
        req.destroy(
          new FetchLimitError(
            `too slow: no complete answer from ${url} within ${formatSeconds(timeoutMs)}`,
          ),
        ),
      timeoutMs,
    );
    function fail(error: Error) {
      clearTimeout(deadline);
      const cut =
        error.message === "aborted" || (error as NodeJS.ErrnoException).code === "ECONNRESET";
      reject(
        cut
          ? new Error(`cut short: the connection closed before ${url} had answered in full`)
          : error,
      );
    }
    req.on("error", fail);
    req.end();
  });
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : `${bytes} bytes`;
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`;
}
