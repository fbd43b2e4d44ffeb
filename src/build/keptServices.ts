import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { routesOf, type ServiceRoutes } from "../edge/edgeFiles.js";
import type { Service } from "../load/model/broadcaster.js";
import { serviceEntries } from "../render/carriedServices.js";
import { KEYED_SI_PATH, OPEN_SI_PATH, radiodnsKey, SPI_BASE } from "../site/siteContract.js";
import type { BuildState } from "./buildState.js";

/**
 * What a `--keep-going` build keeps of services that broke: last night's files, SI entries and
 * edge routes. A broken service's files can only be found by what it was published as, which its
 * broken data may no longer say (its own `radiodns` FQDN or serviceIdentifier, its bearers): each
 * build records every service's routes in the state's `services` part (id → ServiceRoutes), and
 * a service that broke is kept by its recorded routes. Without a record (a state from before it,
 * or a damaged part, dropped and noted: stateParts.ts) it is looked for under the provider's host and
 * its id, as the default radiodns is.
 */
export interface KeptServices {
  /**
   * The broken services that have published PI files, by id, with their routes as recorded:
   * the edge rules keep answering for them.
   */
  routes: Map<string, ServiceRoutes>;
  /** Their PI files: left in place and still owned, so a build that fixes them replaces them. */
  paths: string[];
  /** Their `<service>` elements of last night's open and keyed SI. */
  openSi: string[];
  keyedSi: string[];
}

/** The published files, SI entries and routes of the `broken` services, as out/ holds them now. */
export function readKeptServices(
  outDir: string,
  state: BuildState,
  radiodnsHost: string,
  broken: string[],
): KeptServices {
  const recorded = new Map(Object.entries(state.services));
  const ownedPaths = [...state.owned];
  const routes = new Map<string, ServiceRoutes>();
  const paths: string[] = [];
  for (const name of broken) {
    // A service file that does not parse names no id: the load stage names it by its path, and
    // its id is its file's name (data/services/<id>.yaml, the data folder's layout).
    const id = name.endsWith(".yaml") ? basename(name, ".yaml") : name;
    const route = recorded.get(id) ?? {
      key: radiodnsKey({ fqdn: radiodnsHost, serviceIdentifier: id }),
      bearers: [],
    };
    const folder = `${SPI_BASE}/id/${route.key}/`;
    // Its made logos too (src/logos): the SI entry kept names them.
    const logos = `logos/services/${id}/`;
    const own = ownedPaths.filter((path) => path.startsWith(folder) || path.startsWith(logos));
    if (own.length === 0) continue;
    routes.set(id, route);
    paths.push(...own);
  }
  const keys = new Set([...routes.values()].map(({ key }) => key));
  const entriesOf = (path: string) => {
    const si = readOptional(join(outDir, path));
    return si === undefined ? [] : [...serviceEntries(si, keys).values()];
  };
  return { routes, paths, openSi: entriesOf(OPEN_SI_PATH), keyedSi: entriesOf(KEYED_SI_PATH) };
}

/** Into the state this build writes: the routes of every service it publishes or keeps. */
export function recordServiceRoutes(
  state: BuildState,
  published: readonly Service[],
  kept: KeptServices,
): void {
  const record: Record<string, ServiceRoutes> = Object.fromEntries(kept.routes);
  for (const service of published) record[service.id] = routesOf(service);
  state.services = record;
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
