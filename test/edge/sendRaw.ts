import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { headersOf, type MatrixRow, type Observed, observeParts } from "./requestMatrix.js";

/** A server's plain and TLS ports on 127.0.0.1 (the same one where it speaks plain http only). */
export interface Ports {
  http: number;
  https: number;
}

/**
 * The row's request target byte for byte (no client-side URL normalisation), over https for the
 * rows whose origin is https, with the origin's host (and the port, for a loopback origin).
 */
export function sendRaw(
  port: Ports,
  row: MatrixRow,
  seen: Map<MatrixRow, Observed>,
): Promise<Observed> {
  const origin = new URL(row.origin);
  const https = origin.protocol === "https:";
  const local = origin.hostname !== "spi.example";
  const host = local ? `${origin.hostname}:${https ? port.https : port.http}` : origin.host;
  const send = https ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        host: "127.0.0.1",
        port: https ? port.https : port.http,
        method: row.method,
        path: row.target,
        headers: { ...headersOf(row, seen), host },
        ...(https && { servername: origin.hostname, rejectUnauthorized: false }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const headers = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
            headers.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
          resolve(observeParts(res.statusCode ?? 0, headers, Buffer.concat(chunks).toString()));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
