import { readFile } from "node:fs/promises";
import type { Broadcaster } from "../load/broadcaster.js";
import { parseBroadcastBearer, serviceIdentifiersOf } from "../load/radiodnsBearer.js";
import {
  API_WINDOW_DAYS,
  KEYED_SI_PATH,
  OPEN_SI_PATH,
  programmeInformationPathByBearer,
  programmeInformationPathOf,
  radiodnsKey,
  type SiteDocument,
} from "../site/siteContract.js";
import { createEdgeWorker, type EdgeSite } from "./edgeRules.js";

/** The worker, at the site root where Cloudflare Pages (advanced mode) looks for it. */
export const WORKER_PATH = "_worker.js";

/**
 * The open SI changes only when the nightly build runs: an hour in a client or CDN cache keeps
 * the origin quiet while a corrected SI still reaches everyone the same morning.
 */
export const OPEN_SI_MAX_AGE_SECONDS = 3600;

/** Workers' runtime version the generated worker is written for (the project's wrangler.jsonc). */
export const COMPATIBILITY_DATE = "2026-04-01";

const TEMPLATES = new URL("../../templates/", import.meta.url);

/** `keptServiceIds`: services left out for errors whose last published files stay online. */
export function edgeSiteOf(
  broadcaster: Broadcaster,
  keyDigests: string[],
  keptServiceIds: string[] = [],
): EdgeSite {
  const { provider } = broadcaster;
  const serviceIds = [
    ...broadcaster.services.map((service) => radiodnsKey(service.radiodns)),
    // A broken service's own radiodns is unknown: its files are kept under the provider's host.
    ...keptServiceIds.map((id) =>
      radiodnsKey({ fqdn: provider.radiodnsHost, serviceIdentifier: id }),
    ),
  ].sort();
  return {
    openSiPath: OPEN_SI_PATH,
    keyedSiPath: KEYED_SI_PATH,
    piPathTemplate: programmeInformationPathOf("{service}", "{date}"),
    bearerPiPathTemplate: programmeInformationPathByBearer("{bearer}", "{date}"),
    bearerServices: bearerServicesOf(broadcaster),
    serviceIds,
    hosts: [...new Set(serviceIds.map((key) => key.slice(0, key.lastIndexOf("/"))))],
    openPi: provider.discovery.openPi,
    timeZone: provider.timeZone,
    windowDays: API_WINDOW_DAYS,
    keyDigests,
    openMaxAge: OPEN_SI_MAX_AGE_SECONDS,
  };
}

/** Every ServiceIdentifier of every broadcast bearer → its service's radiodnsKey (load made them unique). */
function bearerServicesOf(broadcaster: Broadcaster): Record<string, string> {
  const table: Record<string, string> = {};
  for (const service of broadcaster.services) {
    for (const { id } of service.bearers) {
      const bearer = parseBroadcastBearer(id);
      if (!bearer) continue;
      for (const identifier of serviceIdentifiersOf(bearer, service.fmCountry)) {
        table[identifier] = radiodnsKey(service.radiodns);
      }
    }
  }
  return table;
}

async function template(name: string): Promise<string> {
  return readFile(new URL(name, TEMPLATES), "utf8");
}

function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

/**
 * The edge files the build writes next to the documents: the worker (the rule module's own
 * source text plus this site's settings), Pages' `_routes.json` (the worker runs for every
 * path), and the `.assetsignore` that keeps the worker and the build's state out of the asset
 * upload of `wrangler deploy`. The wrangler config is the user's own, beside out/ (init).
 */
export async function renderEdgeFiles(site: EdgeSite): Promise<SiteDocument[]> {
  const worker = fill(await template("_worker.js.tmpl"), {
    rules: createEdgeWorker.toString(),
    site: JSON.stringify(site, null, 2),
  });
  const files = {
    [WORKER_PATH]: worker,
    "_routes.json": await template("_routes.json"),
    ".assetsignore": await template(".assetsignore"),
  };
  return Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) }));
}
