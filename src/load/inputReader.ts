import { deserialize, serialize } from "node:v8";
import { debug } from "../debug/debugLog.js";
import type { DataFolder, UnreadableFile } from "./dataFolder.js";
import type { InputCache } from "./inputCache.js";
import type { InputKind, InputOf } from "./inputSchema.js";
import { type ParseWorkers, parseWorkerScript, startParseWorkers } from "./parseInWorkers.js";
import { lazyYamlFile } from "./readYamlFile.js";
import { type ValidatedText, validateInputText } from "./validateInputText.js";

/** A data file validated against its kind's schema, or why it could not be read. */
export type ReadInput<K extends InputKind> = ValidatedText<K> | { unreadable: UnreadableFile };

export interface InputReaderOptions {
  /** Validated files of earlier builds; without it every file is parsed. */
  cache?: InputCache | undefined;
  /** How many threads may parse at once; 1 parses on the main thread only. */
  jobs?: number | undefined;
  /** From how much text to parse worker threads are started (PARSE_WORKERS_FROM_BYTES). */
  parseWorkersFromBytes?: number | undefined;
}

export interface InputReader {
  /**
   * Reads these files ahead (all at once), takes what the cache knows, and starts parsing the
   * rest in worker threads when there is enough of it; `read` then takes each file's result.
   */
  prefetch(files: { kind: InputKind; path: string }[]): Promise<void>;
  read<K extends InputKind>(kind: K, path: string): Promise<ReadInput<K>>;
  /** Stops the workers and says on the debug channel where the files' values came from. */
  close(): Promise<void>;
}

/**
 * Parsing only pays for worker threads from this much YAML to parse: a worker takes about 0.1 s
 * to start (it loads the YAML parsers and the schemas), the main thread parses ~12 MB/s.
 */
export const PARSE_WORKERS_FROM_BYTES = 4_000_000;

/**
 * How the load stage gets each data file's validated value: from the input cache when the file's
 * text was validated before, else parsed (on the main thread, or in worker threads when there is
 * a lot to parse). The value, its problems and their positions are the same whichever way.
 */
export function openInputReader(
  folder: DataFolder,
  display: (path: string) => string,
  { cache, jobs = 1, parseWorkersFromBytes = PARSE_WORKERS_FROM_BYTES }: InputReaderOptions = {},
): InputReader {
  const ahead = new Map<string, () => Promise<ReadInput<InputKind>>>();
  const counts = { cached: 0, parsed: 0 };
  let workers: ParseWorkers | undefined;
  let how = "on the main thread";

  function fromCache(kind: InputKind, path: string, text: string, key: string | undefined) {
    const serialized = key === undefined ? undefined : cache?.read(key);
    if (!serialized) return undefined;
    let input: InputOf<typeof kind>;
    try {
      input = deserialize(serialized);
    } catch {
      debug("load", () => `${display(path)}: its cached value could not be read; parsing it`);
      return undefined;
    }
    counts.cached++;
    return { file: lazyYamlFile(display(path), text), input, problems: [] };
  }

  function parseHere(kind: InputKind, path: string, text: string, key: string | undefined) {
    counts.parsed++;
    const validated = validateInputText(kind, display(path), text);
    if (key !== undefined && validated.input !== undefined) {
      cache?.write(key, serialize(validated.input));
    }
    return validated;
  }

  async function parseInWorker(
    pool: ParseWorkers,
    kind: InputKind,
    path: string,
    text: string,
    key: string | undefined,
  ): Promise<ReadInput<InputKind>> {
    const file = display(path);
    const { problems, serialized } = await pool.parse({ kind, file, text });
    counts.parsed++;
    if (key !== undefined && serialized) cache?.write(key, serialized);
    const input = serialized && (deserialize(serialized) as InputOf<typeof kind>);
    return { file: lazyYamlFile(file, text), input, problems };
  }

  async function readNow(kind: InputKind, path: string): Promise<ReadInput<InputKind>> {
    const read = await folder.readText(path);
    if (!("text" in read)) return read;
    const key = cache?.keyOf(kind, read.text);
    return fromCache(kind, path, read.text, key) ?? parseHere(kind, path, read.text, key);
  }

  return {
    async prefetch(files) {
      const reads = await Promise.all(
        files.map(async (entry) => ({ ...entry, read: await folder.readText(entry.path) })),
      );
      const toParse: { kind: InputKind; path: string; text: string; key: string | undefined }[] =
        [];
      for (const { kind, path, read } of reads) {
        if (!("text" in read)) {
          ahead.set(path, async () => read);
          continue;
        }
        const key = cache?.keyOf(kind, read.text);
        const cached = fromCache(kind, path, read.text, key);
        if (cached) ahead.set(path, async () => cached);
        else toParse.push({ kind, path, text: read.text, key });
      }
      const bytes = toParse.reduce((sum, { text }) => sum + text.length, 0);
      const script = parseWorkerScript();
      const count = Math.min(jobs, toParse.length);
      if (count > 1 && bytes >= parseWorkersFromBytes && script) {
        const pool = startParseWorkers(count, script);
        workers = pool;
        how = `in ${count} worker threads (${megabytes(bytes)} to parse)`;
        for (const { kind, path, text, key } of toParse) {
          const parsed = parseInWorker(pool, kind, path, text, key);
          // Not every file read ahead is asked for (a load that stops early): no stray rejection.
          parsed.catch(() => {});
          ahead.set(path, () => parsed);
        }
      } else {
        how = `on the main thread (${megabytes(bytes)} to parse; ${
          count <= 1
            ? "one thread allowed or one file"
            : script
              ? `worker threads pay from ${megabytes(parseWorkersFromBytes)}`
              : "no compiled parse worker: running from the TypeScript source"
        })`;
        for (const { kind, path, text, key } of toParse) {
          ahead.set(path, async () => parseHere(kind, path, text, key));
        }
      }
    },
    async read<K extends InputKind>(kind: K, path: string): Promise<ReadInput<K>> {
      const prefetched = ahead.get(path);
      ahead.delete(path);
      return (await (prefetched ?? (() => readNow(kind, path)))()) as ReadInput<K>;
    },
    async close() {
      await workers?.close();
      debug(
        "load",
        () =>
          `${counts.cached + counts.parsed} data files: ${counts.cached} from the input cache, ` +
          `${counts.parsed} parsed ${how}`,
      );
    },
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
