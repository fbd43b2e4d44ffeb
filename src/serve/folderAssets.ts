import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import type { AssetFetcher } from "../edge/edgeRules.js";

/** Never block on a FIFO, never follow a link at the file itself. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function notFound(): Response {
  return new Response(null, { status: 404 });
}

/** The path segments of an asset URL, or undefined for anything that could leave the folder. */
function assetSegments(pathname: string): string[] | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  const segments = decoded.split("/").slice(1);
  const unsafe = (s: string) => s === "" || s === "." || s === ".." || s.includes("\0");
  return segments.length === 0 || segments.some(unsafe) ? undefined : segments;
}

/**
 * The preview's stand-in for Cloudflare's asset store, in process: the worker's `ASSETS.fetch`
 * reads the file from the output folder. It opens the file first and takes everything else —
 * the bytes, their length, the modification time — from that open file, so a build renaming or
 * pruning the file meanwhile cannot truncate or break the answer: the old file stays readable
 * through its descriptor. The whole document is read before answering (documents are small),
 * so a 200 never goes out half-sent. The ETag is a hash of the bytes, stable across rebuilds
 * that leave the document unchanged, as Cloudflare's is.
 *
 * It is not reachable from the network: only the worker calls it, so the keyed SI stays behind
 * the rules.
 */
export function folderAssets(outDir: string): AssetFetcher {
  return {
    async fetch(request: Request): Promise<Response> {
      const segments = assetSegments(new URL(request.url).pathname);
      if (segments === undefined) return notFound();
      const file = await open(join(outDir, ...segments), OPEN_FLAGS).catch(() => undefined);
      if (file === undefined) return notFound();
      try {
        const info = await file.stat();
        if (!info.isFile()) return notFound();
        const bytes = await file.readFile();
        const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 32);
        return new Response(bytes, {
          headers: {
            ETag: `"${hash}"`,
            "Last-Modified": new Date(info.mtimeMs).toUTCString(),
            "Content-Length": String(bytes.byteLength),
          },
        });
      } finally {
        await file.close();
      }
    },
  };
}
