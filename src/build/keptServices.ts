import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serviceEntries } from "../render/carriedServices.js";
import { KEYED_SI_PATH, OPEN_SI_PATH, SPI_BASE } from "../site/siteContract.js";

/** What a `--keep-going` build keeps of services that broke: last night's files and SI entries. */
export interface KeptServices {
  /** The broken services that have published PI files. */
  ids: string[];
  /** Their PI files: left in place and still owned, so a build that fixes them replaces them. */
  paths: string[];
  /** Their `<service>` elements of last night's open and keyed SI. */
  openSi: string[];
  keyedSi: string[];
}

/** The published files and SI entries of the `broken` services, as out/ holds them now. */
export function readKeptServices(
  outDir: string,
  owned: ReadonlySet<string>,
  radiodnsHost: string,
  broken: string[],
): KeptServices {
  const ownedPaths = [...owned];
  const ids: string[] = [];
  const paths: string[] = [];
  for (const id of broken) {
    const prefix = `${SPI_BASE}/id/${radiodnsHost}/${id}/`;
    // Its made logos too (src/logos): the SI entry kept names them.
    const logos = `logos/services/${id}/`;
    const own = ownedPaths.filter((path) => path.startsWith(prefix) || path.startsWith(logos));
    if (own.length === 0) continue;
    ids.push(id);
    paths.push(...own);
  }
  const entriesOf = (path: string) => {
    const si = readOptional(join(outDir, path));
    return si === undefined ? [] : [...serviceEntries(si, new Set(ids)).values()];
  };
  return { ids, paths, openSi: entriesOf(OPEN_SI_PATH), keyedSi: entriesOf(KEYED_SI_PATH) };
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}
