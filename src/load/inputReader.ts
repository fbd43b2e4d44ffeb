import { createHash } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import { debug } from "../debug/debugLog.js";
import { type DataFolder, textOf, type UnreadableFile } from "./dataFolder.js";
import type { InputCache } from "./inputCache.js";
import type { InputKind, InputOf } from "./inputSchema.js";
import { type ParseWorkers, parseWorkerScript, startParseWorkers } from "./parseInWorkers.js";
import { lazyYamlFile } from "./readYamlFile.js";
import { type ValidatedText, validateInputText } from "./validateInputText.js";

/** A data file validated against its kind's schema, or why it could not be read. */
export type ReadInput<K extends InputKind> =
  | (ValidatedText<K> & {
      /** A SHA-256 of the file's kind and bytes: what the model made from it depends on. */
      digest: string;
    })
  | { unreadable: UnreadableFile };

export interface InputReaderOptions {
  /** Validated files of earlier builds; without it every file is parsed. */
  cache?: InputCache | undefined;
  /** How many threads may parse at once; 1 parses on the main thread only. */
  jobs?: number | undefined;
  /** From how many bytes to parse worker threads are started (PARSE_WORKERS_FROM_BYTES). */
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

type ToParse = {
  kind: InputKind;
  path: string;
  bytes: Buffer;
  digest: string;
  key: string | undefined;
};

/**
 * How the load stage gets each data file's validated value: from the input cache when the file's
 * bytes were validated before (then they are not even decoded, unless a message needs a position
 * in them), else parsed (on the main thread, or in worker threads when there is a lot to parse).
 * The value, its problems and their positions are the same whichever way.
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

  /** The text of a file parsed in this build, decoded when a message needs a position in it. */
  const lazyText = (bytes: Buffer) => () => {
    const decoded = textOf(bytes);
    return "text" in decoded ? decoded.text : "";
  };
  /**
   * The text of a file known from the cache, read again only when a message needs a position in
   * it (its bytes were not kept). Should it have changed since, positions follow the file as it
   * is now, which is what its author sees; gone, they point at its start.
   */
  const textReadAgain = (path: string) => () => {
    const read = folder.readBytes(path);
    return "bytes" in read ? lazyText(read.bytes)() : "";
  };

  function fromCache(path: string, digest: string, key: string | undefined) {
    const serialized = key === undefined ? undefined : cache?.read(key);
    if (!serialized) return undefined;
    let input: InputOf<InputKind>;
    try {
      input = deserialize(serialized);
    } catch {
      debug("load", () => `${display(path)}: its cached value could not be read; parsing it`);
      return undefined;
    }
    counts.cached++;
    return { file: lazyYamlFile(display(path), textReadAgain(path)), input, problems: [], digest };
  }

  function parseHere({ kind, path, bytes, digest, key }: ToParse): ReadInput<InputKind> {
    const decoded = textOf(bytes);
    if (!("text" in decoded)) return decoded;
    counts.parsed++;
    const validated = validateInputText(kind, display(path), decoded.text);
    if (key !== undefined && validated.input !== undefined) {
      cache?.write(key, serialize(validated.input));
    }
    return { ...validated, digest };
  }

  async function parseInWorker(
    pool: ParseWorkers,
    { kind, path, bytes, digest, key }: ToParse,
  ): Promise<ReadInput<InputKind>> {
    const file = display(path);
    const answer = await pool.run({ kind, file, bytes });
    if ("unreadable" in answer) return { unreadable: answer.unreadable };
    counts.parsed++;
    const { problems, serialized } = answer;
    if (key !== undefined && serialized) cache?.write(key, serialized);
    const input = serialized && (deserialize(serialized) as InputOf<InputKind>);
    return { file: lazyYamlFile(file, lazyText(bytes)), input, problems, digest };
  }

  /** The file's value from the cache, or what is left to parse (with its own copy of the bytes). */
  function readFile(kind: InputKind, path: string) {
    const read = folder.readBytes(path, true);
    if (!("bytes" in read)) return { done: read };
    const digest = createHash("sha256").update(`${kind}\0`).update(read.bytes).digest("hex");
    const key = cache?.keyOf(digest);
    const cached = fromCache(path, digest, key);
    if (cached) return { done: cached };
    return { toParse: { kind, path, bytes: Buffer.from(read.bytes), digest, key } };
  }

  return {
    async prefetch(files) {
      const reads = files.map(({ kind, path }) => readFile(kind, path));
      const toParse: ToParse[] = [];
      for (const [i, read] of reads.entries()) {
        const path = files[i]?.path ?? "";
        if (read.toParse) toParse.push(read.toParse);
        else ahead.set(path, async () => read.done);
      }
      const bytes = toParse.reduce((sum, file) => sum + file.bytes.length, 0);
      const script = parseWorkerScript();
      const count = Math.min(jobs, toParse.length);
      if (count > 1 && bytes >= parseWorkersFromBytes && script) {
        const pool = startParseWorkers(count, script);
        workers = pool;
        how = `in ${count} worker threads (${megabytes(bytes)} to parse)`;
        for (const file of toParse) {
          const parsed = parseInWorker(pool, file);
          // Not every file read ahead is asked for (a load that stops early): no stray rejection.
          parsed.catch(() => {});
          ahead.set(file.path, () => parsed);
        }
      } else {
        how = `on the main thread (${megabytes(bytes)} to parse; ${
          count <= 1
            ? "one thread allowed or one file"
            : script
              ? `worker threads pay from ${megabytes(parseWorkersFromBytes)}`
              : "no compiled parse worker: running from the TypeScript source"
        })`;
        for (const file of toParse) ahead.set(file.path, async () => parseHere(file));
      }
    },
    async read<K extends InputKind>(kind: K, path: string): Promise<ReadInput<K>> {
      const prefetched = ahead.get(path);
      ahead.delete(path);
      if (prefetched) return (await prefetched()) as ReadInput<K>;
      const read = readFile(kind, path);
      return (read.toParse ? parseHere(read.toParse) : read.done) as ReadInput<K>;
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
