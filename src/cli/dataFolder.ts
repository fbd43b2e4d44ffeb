import { existsSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { UsageError } from "../exit/spiStaticError.js";

const PROVIDER_FILE = "provider.yaml";
const START = "run `npx spi-static init` to start a project, or pass --data <dir>";

/**
 * The data folder a command reads: `--data`, else `./data`. Never a fallback to the bundled
 * example: a build in the wrong folder would publish it over the broadcaster's own files. A
 * build's `outDir` may not be it or lie inside it: the site would be mixed into the sources.
 */
export function resolveDataDir(given: string | undefined, outDir?: string): string {
  const dir = given ?? "data";
  if (outDir !== undefined && !relative(resolve(dir), resolve(outDir)).startsWith("..")) {
    throw new UsageError(
      `--out ${outDir} is ${resolve(outDir) === resolve(dir) ? "" : "inside "}the data folder ${dir}: the site would be written among its sources; use another folder, e.g. --out out`,
    );
  }
  if (!isFolder(dir)) {
    throw new UsageError(
      given === undefined
        ? `no data folder here (./data/${PROVIDER_FILE} is missing): ${START}`
        : `--data ${given}: no such folder`,
    );
  }
  if (!existsSync(join(dir, PROVIDER_FILE))) {
    const yml = join(dir, "provider.yml");
    throw new UsageError(
      existsSync(yml)
        ? `found ${yml}: rename it to ${PROVIDER_FILE} (spi-static reads only .yaml files)`
        : `${dir} has no ${PROVIDER_FILE}: ${START}`,
    );
  }
  return dir;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
