import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../exit/spiStaticError.js";
import { openDataFolder } from "../load/files/dataFolder.js";
import { formatProblem, type InputProblem } from "../load/text/inputProblem.js";

/**
 * A project's development key, made by `spi-static init` and git-ignored: lets `serve` and
 * `verify` work from the first minute without a key that could reach git or a deployment.
 */
export const DEV_KEYS_FILE = "keys.dev.txt";
/** The bundled example's public demo key (it is in the repository and the package). */
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
  /** `--keys-at-edge`: the deployment's API_KEY_SHA256 secret brings the digests; none is needed here. */
  atEdge?: boolean | undefined;
}

/** No key from anywhere: the worker would answer 403 to every key, so the build refuses. */
export class MissingKeysError extends UsageError {}

/**
 * Keys that cannot be used as given (`--keys-file`, SPI_API_KEYS, the data folder's keys file):
 * a usage error (exit 2, as for a missing key), each bad line with its position.
 */
export class KeysError extends UsageError {
  constructor(
    readonly problems: InputProblem[],
    readonly source: string,
  ) {
    super(`${problems.length} bad key(s) in ${source}:\n${problems.map(formatProblem).join("\n")}`);
    this.name = "KeysError";
  }

  override describe(): string[] {
    const count = this.problems.length;
    return [
      ...this.problems.map(formatProblem),
      `spi-static: ${count} ${count === 1 ? "error" : "errors"} in ${this.source}; nothing was written`,
    ];
  }

  override toJsonReport(): Record<string, unknown> {
    return { problems: this.problems };
  }
}

/**
 * The text of a keys file named on the command line; one that is missing or cannot be read is
 * a usage error naming it, not a crash.
 */
export async function readKeysFileText(path: string): Promise<string> {
  return readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    const reason =
      error.code === "ENOENT"
        ? "no such file"
        : error.code === "EISDIR"
          ? "is a folder, not a keys file"
          : error.code === "EACCES"
            ? "cannot be read (permission denied)"
            : error.message;
    throw new UsageError(`--keys-file ${path}: ${reason}`);
  });
}

export interface ApiKeys {
  /** SHA-256 of each key, lowercase hex: the only form in which keys reach the output. */
  digests: string[];
  /** Where they came from, for the build's summary. */
  origin: string;
  /** True when the data folder's development or demo key is in use: never one to deploy. */
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

/** Keys read from a file or a list, and every bad entry with its position. */
export interface ParsedKeys {
  keys: string[];
  problems: InputProblem[];
}

/** Keys of a keys file; every bad line is reported with its position. */
export function parseKeysFile(text: string, file: string): ParsedKeys {
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
  return { keys, problems };
}

export function parseKeysList(list: string, origin: string): ParsedKeys {
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
  return { keys, problems };
}

/** The build stops on a bad key: a worker that silently dropped one would refuse its client. */
function keysOrThrow({ keys, problems }: ParsedKeys, source: string): string[] {
  if (problems.length > 0) throw new KeysError(problems, source);
  return keys;
}

async function readKeysFile(path: string): Promise<string[]> {
  return keysOrThrow(parseKeysFile(await readKeysFileText(path), path), path);
}

/**
 * The build's keys: `--keys-file`, else `SPI_API_KEYS`, else the data folder's development key
 * (keys.dev.txt) or demo key (keys.demo.txt). None at all is refused unless `atEdge` says the
 * deployment's `API_KEY_SHA256` secret brings them (it overrides these at the edge anyway).
 */
export async function resolveApiKeys(dataDir: string, sources: KeySources): Promise<ApiKeys> {
  let keys: string[];
  let origin: string;
  let demo = false;
  if (sources.keysFile !== undefined) {
    keys = await readKeysFile(sources.keysFile);
    origin = sources.keysFile;
  } else if (sources.keysList?.trim()) {
    keys = keysOrThrow(parseKeysList(sources.keysList, "SPI_API_KEYS"), "SPI_API_KEYS");
    origin = "SPI_API_KEYS";
  } else {
    keys = [];
    origin = "API_KEY_SHA256 at the edge";
    // --keys-at-edge: no digest in the build, whatever key files the data folder holds.
    for (const name of sources.atEdge ? [] : [DEV_KEYS_FILE, DEMO_KEYS_FILE]) {
      const file = join(dataDir, name);
      keys = await readDataKeysFile(dataDir, file);
      if (keys.length > 0) {
        origin = file;
        demo = true;
        break;
      }
    }
  }
  if (keys.length === 0 && !sources.atEdge) {
    throw new MissingKeysError(
      "no API keys: the worker would refuse every key. Give --keys-file <path> or SPI_API_KEYS, " +
        "or --keys-at-edge when the deployment sets the API_KEY_SHA256 secret",
    );
  }
  return { digests: [...new Set(keys.map(digestOfKey))], origin, demo };
}

/** A keys file of the data folder, read as every data file is: no link out of it, no FIFO, no device. */
async function readDataKeysFile(dataDir: string, file: string): Promise<string[]> {
  const read = await (await openDataFolder(dataDir)).readText(file);
  if ("text" in read) return keysOrThrow(parseKeysFile(read.text, file), file);
  if (read.unreadable.missing) return [];
  const { line, column, message } = read.unreadable;
  throw new KeysError([{ file, line, column, field: "", severity: "error", message }], file);
}
