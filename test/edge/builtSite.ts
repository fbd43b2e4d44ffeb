import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSite } from "../../src/build/buildSite.js";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { edgeSiteOf } from "../../src/edge/edgeFiles.js";
import type { EdgeSite } from "../../src/edge/edgeRules.js";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";

/** The example broadcaster, built at a fixed clock: Monday 23 November 2026, 09:00 in Zurich. */
export const DATA_DIR = new URL("../../data", import.meta.url).pathname;
export const BUILD_NOW = "2026-11-23T08:00:00Z";
export const VALID_KEYS = ["matrix-key-valid-0001", "matrix-key-second-0002"] as const;
/** A key the build does not know, but the deployment's API_KEY_SHA256 does. */
export const OVERRIDE_KEY = "override-key-00000003";

export interface BuiltSite {
  dataDir: string;
  outDir: string;
  /** The same settings the build embedded in out/_worker.js. */
  site: EdgeSite;
}

/** Where the `ownHost` variant publishes Aare Klassik: its own Authoritative FQDN and id. */
export const OWN_HOST = { fqdn: "klassik.aareradio.example", serviceIdentifier: "classics" };

/**
 * The example data, or a copy whose provider chose `discovery.pi: open` (`openPi`), or one whose
 * klassik service has its own RadioDNS FQDN and serviceIdentifier (`ownHost`).
 */
export async function testDataDir(variant: TestSiteVariant): Promise<string> {
  if (variant === "keyed") return DATA_DIR;
  const dataDir = await mkdtemp(join(tmpdir(), "spi-edge-data-"));
  await cp(DATA_DIR, dataDir, { recursive: true });
  if (variant === "ownHost") {
    const service = join(dataDir, "services", "klassik.yaml");
    const text = await readFile(service, "utf8");
    const { fqdn, serviceIdentifier } = OWN_HOST;
    const radiodns = `radiodns: { fqdn: ${fqdn}, serviceIdentifier: ${serviceIdentifier} }\n`;
    await writeFile(service, text.replace(/^id: klassik\n/m, `$&${radiodns}`));
    return dataDir;
  }
  const provider = join(dataDir, "provider.yaml");
  const text = await readFile(provider, "utf8");
  const discovery = /^discovery:.*\n/m;
  if (!discovery.test(text)) throw new Error("data/provider.yaml has no discovery mapping");
  await writeFile(provider, text.replace(discovery, "$&  pi: open\n"));
  return dataDir;
}

export type TestSiteVariant = "keyed" | "openPi" | "ownHost";

export async function buildTestSite(variant: TestSiteVariant = "keyed"): Promise<BuiltSite> {
  const dataDir = await testDataDir(variant);
  const outDir = await mkdtemp(join(tmpdir(), "spi-edge-"));
  await buildSite({
    dataDir,
    outDir,
    now: Date.parse(BUILD_NOW),
    keys: { keysList: VALID_KEYS.join(",") },
  });
  const { broadcaster } = await loadBroadcaster(dataDir);
  if (!broadcaster) throw new Error(`${dataDir} does not load`);
  return { dataDir, outDir, site: edgeSiteOf(broadcaster, VALID_KEYS.map(digestOfKey)) };
}
