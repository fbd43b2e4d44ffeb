import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEMO_KEYS_FILE, DEV_KEYS_FILE, parseKeysFile } from "../edge/apiKeys.js";
import { OPEN_SI_PATH, SPI_BASE } from "../site/siteContract.js";

export interface PreviewExamples {
  /** Where this machine reaches the preview: a loopback address when it listens on all of them. */
  origin: string;
  siUrl: string;
  /** A PI document of the published output (the middle of its days: the build's today). */
  piUrl: string | undefined;
  /** A key of the data folder's keys files that the preview was seen to accept, and its file. */
  key: { key: string; file: string } | undefined;
  /** Keys files of the data folder whose keys the preview refused (built with other keys). */
  refusedKeyFiles: string[];
  /** Keys over plain http are refused on this address (it is not loopback). */
  keysRefused: boolean;
}

async function sortedEntries(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return names.sort();
}

/** `http://0.0.0.0:8080` is no address to send a request to; loopback reaches the same server. */
function reachableOrigin(listening: string): string {
  const url = new URL(listening);
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  if (url.hostname === "[::]") url.hostname = "[::1]";
  return url.origin;
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * What `spi-static serve` prints so a first request works by copy and paste: it prints a key
 * only after the running preview accepted it, so a printed example never answers 403.
 */
export async function previewExamples(
  listening: string,
  outDir: string,
  dataDir: string,
): Promise<PreviewExamples> {
  const origin = reachableOrigin(listening);
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
  const siUrl = `${origin}/${OPEN_SI_PATH}`;
  const keysRefused = !isLoopbackHost(new URL(origin).hostname);
  let key: PreviewExamples["key"];
  const refusedKeyFiles: string[] = [];
  for (const name of keysRefused ? [] : [DEV_KEYS_FILE, DEMO_KEYS_FILE]) {
    const file = join(dataDir, name);
    const [candidate] = await readFile(file, "utf8")
      .then((text) => parseKeysFile(text, file).keys)
      .catch(() => []);
    if (candidate === undefined) continue;
    const answer = await fetch(siUrl, {
      headers: { authorization: `ClientIdentifier ${candidate}` },
    });
    await answer.arrayBuffer();
    if (answer.status === 200) {
      key = { key: candidate, file };
      break;
    }
    refusedKeyFiles.push(file);
  }
  return { origin, siUrl, piUrl, key, refusedKeyFiles, keysRefused };
}
