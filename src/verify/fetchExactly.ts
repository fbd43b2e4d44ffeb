import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * GET with the path sent exactly as given. fetch() and URL normalise `..`, `%2e%2e` and
 * backslashes away before sending, which would hide the very traversal attempts a client (or
 * an attacker) can make against the keyed SI.
 */
export function fetchExactly(
  origin: URL,
  rawPath: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<RawResponse> {
  const request = origin.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        protocol: origin.protocol,
        hostname: origin.hostname.replace(/^\[|\]$/g, ""),
        port: origin.port || undefined,
        path: rawPath,
        method: "GET",
        headers: { "User-Agent": "spi-static verify", ...headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}
