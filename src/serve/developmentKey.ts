import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  DEMO_KEYS_FILE,
  DEV_KEYS_FILE,
  type KeySources,
  type ParsedKeys,
  parseKeysFile,
  parseKeysList,
} from "../edge/apiKeys.js";

/**
 * The key the EPG page's document links send: the first key the build itself takes (keys
 * file, SPI_API_KEYS, or the data folder's development or demo key), so the links pass the
 * rules just built.
 * Undefined when none can be read; the build reports why.
 */
export async function developmentKey(
  dataDir: string,
  { keysFile, keysList }: KeySources,
): Promise<string | undefined> {
  try {
    if (keysFile) return firstKey(parseKeysFile(await readFile(keysFile, "utf8"), keysFile));
    if (keysList?.trim()) return firstKey(parseKeysList(keysList, "SPI_API_KEYS"));
    for (const name of [DEV_KEYS_FILE, DEMO_KEYS_FILE]) {
      const file = join(dataDir, name);
      const text = await readFile(file, "utf8").catch(() => undefined);
      const key = text === undefined ? undefined : firstKey(parseKeysFile(text, file));
      if (key !== undefined) return key;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** None from a source with a bad key: the build refuses it, so there is no build to link. */
function firstKey({ keys, problems }: ParsedKeys): string | undefined {
  return problems.length > 0 ? undefined : keys[0];
}
