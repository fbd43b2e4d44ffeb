import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { openDataFolder } from "../load/dataFolder.js";
import { InputError, type InputProblem } from "../load/inputProblem.js";

/** The data folder's demo key: lets `spi-static serve` answer keyed requests out of the box. */
export const DEMO_KEYS_FILE = "keys.demo.txt";

/** token68 characters (RFC 9110 §11.2): no spaces or commas, so SPI_API_KEYS can list keys. */
const KEY_PATTERN = /^[A-Za-z0-9._~+/-]+=*$/;
const MIN_KEY_LENGTH = 16;
const MAX_KEY_LENGTH = 256;

export interface KeySources {
  /** `--keys-file`: one key per line, `#` comments. Wins over everything else. */
  keysFile?: string | undefined;
  /** `SPI_API_KEYS`: comma-separated keys. */
  keysList?: string | undefined;
}

export interface ApiKeys {
  /** SHA-256 of each key, lowercase hex: the only form in which keys reach the output. */
  digests: string[];
  /** Where they came from, for the build's summary. */
  origin: string;
  /** True when the data folder's public demo key is in use. */
  demo: boolean;
}

export function digestOfKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

function keyProblem(key: string): string | undefined {
  if (key.length < MIN_KEY_LENGTH) return `a key needs at least ${MIN_KEY_LENGTH} characters`;
  if (key.length > MAX_KEY_LENGTH) return `a key has at most ${MAX_KEY_LENGTH} characters`;
  if (!KEY_PATTERN.test(key))
    return "a key may hold only letters, digits and - . _ ~ + / (and trailing =)";
  return undefined;
}

/** Keys of a keys file; every bad line is reported with its position. */
export function parseKeysFile(text: string, file: string): string[] {
  const keys: string[] = [];
  const problems: InputProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const problem = keyProblem(line);
    const at = { file, line: index + 1, column: raw.indexOf(line) + 1, field: "key" };
    if (problem) problems.push({ ...at, severity: "error", message: problem });
    else keys.push(line);
  });
  if (problems.length > 0) throw new InputError(problems);
  return keys;
}

export function parseKeysList(list: string, origin: string): string[] {
  const keys = list
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key !== "");
  const problems = keys.flatMap((key, index) => {
    const problem = keyProblem(key);
    return problem
      ? [
          {
            file: origin,
            line: 1,
            column: 1,
            field: `[${index}]`,
            severity: "error" as const,
            message: problem,
          },
        ]
      : [];
  });
  if (problems.length > 0) throw new InputError(problems);
  return keys;
}

async function readKeysFile(path: string): Promise<string[]> {
  return parseKeysFile(await readFile(path, "utf8"), path);
}

/**
 * The build's keys: `--keys-file`, else `SPI_API_KEYS`, else the data folder's demo key (if any).
 * Deployments should set the `API_KEY_SHA256` secret instead; it overrides these at the edge.
 */
export async function resolveApiKeys(dataDir: string, sources: KeySources): Promise<ApiKeys> {
  let keys: string[];
  let origin: string;
  let demo = false;
  if (sources.keysFile) {
    keys = await readKeysFile(sources.keysFile);
    origin = sources.keysFile;
  } else if (sources.keysList?.trim()) {
    keys = parseKeysList(sources.keysList, "SPI_API_KEYS");
    origin = "SPI_API_KEYS";
  } else {
    const demoFile = join(dataDir, DEMO_KEYS_FILE);
    // Read as every data file is: no link out of the folder, no FIFO, no device.
    const read = await (await openDataFolder(dataDir)).readText(demoFile);
    if ("text" in read) keys = parseKeysFile(read.text, demoFile);
    else if (read.unreadable.missing) keys = [];
    else {
      const { line, column, message } = read.unreadable;
      throw new InputError([
        { file: demoFile, line, column, field: "", severity: "error", message },
      ]);
    }
    origin = keys.length > 0 ? demoFile : "none";
    demo = keys.length > 0;
  }
  return { digests: [...new Set(keys.map(digestOfKey))], origin, demo };
}
