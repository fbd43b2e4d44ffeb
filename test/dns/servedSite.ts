import { execFileSync, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { join, resolve } from "node:path";
import { BUILD_NOW } from "../edge/builtSite.js";
import { waitForOutput } from "./nsdServer.js";

const CLI = resolve("dist/cli/main.js");

export interface ServedSite {
  /** The TLS front's self-signed certificate for `host`: the clients trust it. */
  certificate: string;
  stop(): Promise<void>;
}

/**
 * `spi-static serve` on `servePort` (plain HTTP, for `_radioepg`) and a TLS front on `tlsPort`
 * with a certificate for `host` made with openssl (for `_radiospi`), which passes each request
 * to the preview over loopback. `originHost`: the front sends the preview's own host, as a CDN
 * does to its origin; otherwise every request goes on as it came. Shared by the lookup and the
 * receiver tests.
 */
export async function serveBehindTls({
  root,
  outDir,
  host,
  servePort,
  tlsPort,
  originHost,
}: {
  root: string;
  outDir: string;
  host: string;
  servePort: number;
  tlsPort: number;
  originHost: boolean;
}): Promise<ServedSite> {
  const serve = spawn(process.execPath, [
    ...[CLI, "serve", "--out", outDir, "--port", String(servePort), "--now", BUILD_NOW],
  ]);
  const serveExit = new Promise<void>((done) => serve.on("exit", () => done()));
  execFileSync("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
    ...["-keyout", join(root, "key.pem"), "-out", join(root, "cert.pem"), "-days", "1"],
    ...["-subj", `/CN=${host}`, "-addext", `subjectAltName=DNS:${host}`],
  ]);
  const certificate = await readFile(join(root, "cert.pem"), "utf8");
  const front = createHttpsServer(
    { key: await readFile(join(root, "key.pem")), cert: certificate },
    (incoming, outgoing) => {
      const headers = originHost
        ? { ...incoming.headers, host: `127.0.0.1:${servePort}` }
        : incoming.headers;
      const upstream = httpRequest(
        {
          host: "127.0.0.1",
          port: servePort,
          method: incoming.method,
          path: incoming.url,
          headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => outgoing.writeHead(502).end());
      incoming.pipe(upstream);
    },
  );
  await new Promise<void>((done) => front.listen(tlsPort, "127.0.0.1", done));
  await waitForOutput(serve, "PI:", "spi-static serve");
  return {
    certificate,
    async stop() {
      serve.kill("SIGTERM");
      await new Promise((done) => front.close(done));
      await serveExit;
    },
  };
}
