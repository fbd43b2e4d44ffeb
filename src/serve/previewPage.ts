import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { SiteWatcher, WatchState } from "./siteWatcher.js";

/** The page's own files, shipped in the package next to the other templates. */
const PAGE_DIR = new URL("../../templates/preview/", import.meta.url);
const PAGE_FILES: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/_preview/epg.css": { file: "epg.css", type: "text/css; charset=utf-8" },
  "/_preview/epg.js": { file: "epg.js", type: "text/javascript; charset=utf-8" },
};
const DAY_PATH = /^\/_preview\/day\/(\d{4}-\d{2}-\d{2})\.json$/;
const SSE_PATH = "/_preview/events";
const SITE_PATH = "/_preview/site.json";

export interface PreviewPage {
  /**
   * Answers the EPG page's paths (`/` and `/_preview/…`, which the API never uses) and returns
   * true; for any other path it waits until no build is running and returns false, so the
   * edge rules answer it from a complete output folder.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Ends the open event streams, so the server can close. */
  close(): void;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer) {
  res.writeHead(status, {
    "Content-Type": type,
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, "application/json; charset=utf-8", JSON.stringify(value));

/**
 * Whether the page and its data may answer a request for this Host: `localhost` (and
 * `*.localhost`, which browsers resolve themselves) or an IP address, never another name. A
 * web page elsewhere can rebind its own name to 127.0.0.1 (DNS rebinding) and then read, as its
 * own origin, what the preview serves — the development key in site.json among it; its
 * requests still carry its name in Host. An address has no name to rebind.
 */
export function pageAnswersHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  return (
    hostname === "localhost" ||
    hostname.endsWith(".localhost") ||
    isIP(hostname.replace(/^\[(.*)\]$/, "$1")) !== 0
  );
}

export function previewPage(watcher: SiteWatcher): PreviewPage {
  const streams = new Set<ServerResponse>();
  const event = (state: WatchState) => `data: ${JSON.stringify(state)}\n\n`;
  const unsubscribe = watcher.subscribe((state) => {
    for (const res of streams) res.write(event(state));
  });

  function openStream(req: IncomingMessage, res: ServerResponse) {
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
    });
    res.write(event(watcher.state()));
    streams.add(res);
    req.on("close", () => streams.delete(res));
  }

  return {
    async handle(req, res) {
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const ours = path === "/" || path.startsWith("/_preview/");
      if (!ours) {
        await watcher.idle();
        return false;
      }
      if (!pageAnswersHost(req.headers.host)) {
        send(
          res,
          403,
          "text/plain; charset=utf-8",
          "the preview page answers at localhost or an IP address only, not at another name (DNS rebinding)\n",
        );
        return true;
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.setHeader("Allow", "GET, HEAD");
        send(res, 405, "text/plain; charset=utf-8", "method not allowed\n");
        return true;
      }
      const page = PAGE_FILES[path];
      if (page) {
        send(res, 200, page.type, await readFile(new URL(page.file, PAGE_DIR)));
      } else if (path === SSE_PATH) {
        openStream(req, res);
      } else if (path === SITE_PATH) {
        await watcher.idle();
        sendJson(res, 200, { state: watcher.state(), site: watcher.model()?.site ?? null });
      } else {
        await watcher.idle();
        const date = DAY_PATH.exec(path)?.[1];
        const day = date ? watcher.model()?.day(date) : undefined;
        if (day) sendJson(res, 200, day);
        else send(res, 404, "text/plain; charset=utf-8", "not a preview path\n");
      }
      return true;
    },
    close() {
      unsubscribe();
      for (const res of streams) res.end();
      streams.clear();
    },
  };
}
