import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createEdgeWorker, type EdgeSite } from "../edge/edgeRules.js";
import { createFetchApi } from "./fetchShims.js";
import { createNjsHandler, type NjsSettings } from "./njsAdapter.js";
import { installNjsPolyfills, njsPolyfills } from "./njsPolyfills.js";
import { createZoneIntl, type ZoneOffsets } from "./zoneCalendar.js";

/**
 * The global under which nginx gives the module the site's tables (`js_preload_object`,
 * serverConfig.ts): parsed once when nginx loads its configuration and shared by every request,
 * whereas the module itself runs afresh for each request (njs 0.7 keeps no state between them),
 * so a table in it would cost every request a pass over every service.
 */
export const SITE_TABLES_GLOBAL = "spi_static_tables";

/** The preloaded JSON file: what grows with services, and the zone's offsets. */
export interface SiteTables extends Pick<EdgeSite, "serviceIds" | "hosts" | "bearerServices"> {
  zone: ZoneOffsets;
}

/** The tables of `site`, sorted as the rules search them (a site an older build wrote too). */
export function siteTablesOf(site: EdgeSite, zone: ZoneOffsets): SiteTables {
  return {
    serviceIds: [...site.serviceIds].sort(),
    hosts: [...site.hosts].sort(),
    bearerServices: site.bearerServices,
    zone,
  };
}

/** Where `npm run build` leaves the module lowered for njs, next to this file in dist/. */
export const LOWERED_MODULE_FILE = "njsModule.lowered.js.txt";

/** Stands in the lowered module for this site's settings, a JSON literal put in at run time. */
const SETTINGS_PLACEHOLDER = "SPI_STATIC_SETTINGS";

/**
 * The njs module's source, the same for every site: the worker's rule function
 * (`createEdgeWorker`, its source text as out/_worker.js has it) run on stand-ins for the Web
 * APIs njs lacks (fetchShims.ts, zoneCalendar.ts, njsPolyfills.ts) behind the adapter from
 * njs's request object (njsAdapter.ts). Everything is the running program's own code as source
 * text: one rule source for Cloudflare, the preview and nginx.
 */
export function njsModuleSource(): string {
  return [
    'import fs from "fs";',
    `(${installNjsPolyfills.toString()})((${njsPolyfills.toString()})());`,
    `const settings = ${SETTINGS_PLACEHOLDER};`,
    `const tables = ${SITE_TABLES_GLOBAL};`,
    `const fetchApi = (${createFetchApi.toString()})();`,
    `const zoneIntl = (${createZoneIntl.toString()})(tables.zone);`,
    // The rules see the stand-ins under the global names they use.
    `const createEdgeWorker = (function (Request, Response, Headers, URL, Intl) {
  return ${createEdgeWorker.toString()};
})(fetchApi.Request, fetchApi.Response, fetchApi.Headers, fetchApi.URL, zoneIntl);`,
    `const handle = (${createNjsHandler.toString()})(
  createEdgeWorker({
    ...settings.site,
    serviceIds: tables.serviceIds,
    hosts: tables.hosts,
    bearerServices: tables.bearerServices,
  }),
  fetchApi,
  settings.adapter,
  fs,
);`,
    "export default { handle };",
  ].join("\n\n");
}

/** The first line of the lowered file: the digest of the source it was lowered from. */
function sourceLine(source: string): string {
  return `// source sha256 ${createHash("sha256").update(source).digest("hex")}\n`;
}

/** The lowered file `npm run build` writes (buildLoweredModule.ts): its source's digest, then code. */
export function loweredModuleFile(source: string, lowered: string): string {
  return `${sourceLine(source)}${lowered}`;
}

/**
 * The module source lowered for njs: from the file the package build wrote when it was lowered
 * from this very source, else (a checkout run from src/, or tsc without the build's last step)
 * lowered now with Babel, a development dependency.
 */
async function loweredModule(): Promise<string> {
  const source = njsModuleSource();
  const built = await readFile(new URL(LOWERED_MODULE_FILE, import.meta.url), "utf8").catch(
    () => "",
  );
  const line = sourceLine(source);
  if (built.startsWith(line)) return built.slice(line.length);
  const { lowerForNjs } = await import("./lowerForNjs.js").catch(() => {
    throw new Error(
      `this installation lacks ${LOWERED_MODULE_FILE} for its own code: install the package again`,
    );
  });
  return lowerForNjs(source);
}

/**
 * The njs module nginx loads, with this site's settings; its tables go into the JSON file nginx
 * preloads (siteTablesOf).
 */
export async function renderNjsModule(site: EdgeSite, adapter: NjsSettings): Promise<string> {
  const { serviceIds: _s, hosts: _h, bearerServices: _b, ...rest } = site;
  const settings = JSON.stringify({ site: rest, adapter })
    // Line and paragraph separators: JSON allows them in strings, older JavaScript parsers not.
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
  const lowered = await loweredModule();
  const parts = lowered.split(SETTINGS_PLACEHOLDER);
  if (parts.length !== 2)
    throw new Error(`the lowered njs module has no single ${SETTINGS_PLACEHOLDER}`);
  return `// Written by \`spi-static nginx\`: do not edit, run it again instead.
// The SPI 3.1 edge rules of out/_worker.js for nginx's JavaScript module (njs 0.7+).
${parts[0]}${settings}${parts[1]}
`;
}
