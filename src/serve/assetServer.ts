import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import serveHandler from "serve-handler";
import type { AssetFetcher } from "../edge/edgeRules.js";

const TOKEN_HEADER = "x-spi-static-asset-token";

export interface AssetServer {
  /** What the worker gets as `env.ASSETS`, like Cloudflare's binding. */
  assets: AssetFetcher;
  /** Where it listens; without the token it answers 404 to everything. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The preview's stand-in for Cloudflare's asset store: serve-handler over the output folder, on
 * a loopback port of its own. It would hand out the keyed SI to anyone who asked, so it answers
 * only requests that carry this process's random token — i.e. only the worker's ASSETS calls.
 */
export async function startAssetServer(outDir: string): Promise<AssetServer> {
  const token = randomBytes(24).toString("hex");
  const server = createServer((req, res) => {
    if (req.headers[TOKEN_HEADER] !== token) {
      res.writeHead(404).end();
      return;
    }
    serveHandler(req, res, {
      public: outDir,
      cleanUrls: false,
      directoryListing: false,
      symlinks: false,
    }).catch((error: unknown) => {
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    assets: {
      fetch(request: Request) {
        const { pathname } = new URL(request.url);
        return fetch(`http://127.0.0.1:${port}${pathname}`, { headers: { [TOKEN_HEADER]: token } });
      },
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
