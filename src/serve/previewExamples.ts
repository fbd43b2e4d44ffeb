import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEMO_KEYS_FILE, parseKeysFile } from "../edge/apiKeys.js";
import { OPEN_SI_PATH, SPI_BASE } from "../site/siteContract.js";

export interface PreviewExamples {
  siUrl: string;
  /** A PI document of the published output (the middle of its days: the build's today). */
  piUrl: string | undefined;
  /** The data folder's demo key, when it has one. */
  demoKey: string | undefined;
}

async function sortedEntries(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return names.sort();
}

/** What `spi-static serve` prints so a first request works by copy and paste. */
export async function previewExamples(
  origin: string,
  outDir: string,
  dataDir: string,
): Promise<PreviewExamples> {
  let piUrl: string | undefined;
  const idDir = join(outDir, SPI_BASE, "id");
  const [host] = await sortedEntries(idDir);
  if (host) {
    const [service] = await sortedEntries(join(idDir, host));
    const days = service
      ? (await sortedEntries(join(idDir, host, service))).filter((n) => n.endsWith("_PI.xml"))
      : [];
    const day = days[Math.floor(days.length / 2)];
    if (service && day) piUrl = `${origin}/${SPI_BASE}/id/${host}/${service}/${day}`;
  }
  const demoFile = join(dataDir, DEMO_KEYS_FILE);
  const demoKeys = await readFile(demoFile, "utf8")
    .then((text) => parseKeysFile(text, demoFile))
    .catch(() => []);
  return { siUrl: `${origin}/${OPEN_SI_PATH}`, piUrl, demoKey: demoKeys[0] };
}
