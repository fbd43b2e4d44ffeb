import { readFile } from "node:fs/promises";
import { parseBroadcastBearer, serviceIdentifiersOf } from "../load/formats/radiodnsBearer.js";
import type { Broadcaster, Service } from "../load/model/broadcaster.js";
import {
  API_WINDOW_DAYS,
  fqdnOfKey,
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

/**
 * How the edge rules route to one service's PI files: its radiodnsKey (`<fqdn>/<serviceIdentifier>`)
 * and every ServiceIdentifier of its broadcast bearers. The engine records it per service, so a
 * service left out for errors (`--keep-going`) keeps its routes to last night's files.
 */
export interface ServiceRoutes {
  key: string;
  bearers: string[];
}

export function routesOf(service: Service): ServiceRoutes {
  const bearers: string[] = [];
  for (const { id } of service.bearers) {
    const bearer = parseBroadcastBearer(id);
    if (bearer) bearers.push(...serviceIdentifiersOf(bearer, service.fmCountry));
  }
  return { key: radiodnsKey(service.radiodns), bearers };
}

/** `kept`: the routes of services left out for errors whose last published files stay online. */
export function edgeSiteOf(
  broadcaster: Broadcaster,
  keyDigests: string[],
  kept: readonly ServiceRoutes[] = [],
): EdgeSite {
  const { provider } = broadcaster;
  const routes = [...kept, ...broadcaster.services.map(routesOf)];
  const serviceIds = [...new Set(routes.map(({ key }) => key))].sort();
  // Load made the healthy services' bearers unique; they come last, so they win over a kept one's.
  const bearerServices: Record<string, string> = {};
  for (const { key, bearers } of routes) for (const bearer of bearers) bearerServices[bearer] = key;
  return {
    openSiPath: OPEN_SI_PATH,
    keyedSiPath: KEYED_SI_PATH,
    piPathTemplate: programmeInformationPathOf("{service}", "{date}"),
    bearerPiPathTemplate: programmeInformationPathByBearer("{bearer}", "{date}"),
    bearerServices,
    serviceIds,
    hosts: [...new Set(serviceIds.map(fqdnOfKey))].sort(),
    openPi: provider.discovery.openPi,
    timeZone: provider.timeZone,
    windowDays: API_WINDOW_DAYS,
    keyDigests,
    openMaxAge: OPEN_SI_MAX_AGE_SECONDS,
  };
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
