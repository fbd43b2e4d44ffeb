import { createHash } from "node:crypto";
import { deserialize, serialize } from "node:v8";
import { debug } from "../../debug/debugLog.js";
import { notePhase } from "../../debug/memoryPhases.js";
import type { InputKind, InputOf } from "../schema/inputKinds.js";
import { type ValidatedText, validateInputText } from "../schema/validateInputText.js";
import type { InputProblem } from "../text/inputProblem.js";
import { lazyYamlFile, type YamlFile } from "../text/readYamlFile.js";
import { type DataFileBytes, type DataFolder, textOf, type UnreadableFile } from "./dataFolder.js";
import type { InputCache } from "./inputCache.js";
import type { KnownDigests } from "./knownDigests.js";
import {
  PARSE_WORKER_OLD_GENERATION_MB,
  PARSE_WORKER_YOUNG_GENERATION_MB,
  type ParseResponse,
  type ParseWorkers,
  parseWorkerScript,
  startParseWorkers,
} from "./parseInWorkers.js";

/** A data file validated against its kind's schema, or why it could not be read. */
export type ReadInput<K extends InputKind> =
  | (ValidatedText<K> & {
      /** A SHA-256 of the file's kind and bytes: what the model made from it depends on. */
      digest: string;
    })
  | { unreadable: UnreadableFile };

/**
 * The same, its value read only when asked (readLater): from the input cache, or from the value
 * serialized when the file was parsed in this build, so the caller holds bytes, not objects.
 */
export type DeferredInput<K extends InputKind> =
  | {
      file: YamlFile;
      /** Undefined when the file has errors (then in `problems`). */
      input: (() => InputOf<K>) | undefined;
      problems: InputProblem[];
      digest: string;
    }
  | { unreadable: UnreadableFile };

export interface InputReaderOptions {
  /** Validated files of earlier builds; without it every file is parsed. */
  cache?: InputCache | undefined;
  /** Digests of data files known by their state; without it every file is read and hashed. */
  known?: KnownDigests | undefined;
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
  /** A file whose value the caller reads later, maybe more than once (episode files). */
  readLater<K extends InputKind>(kind: K, path: string): Promise<DeferredInput<K>>;
  /** Stops the workers and says on the debug channel where the files' values came from. */
  close(): Promise<void>;
}

/**
 * Parsing only pays for worker threads from this much YAML to parse: a worker takes about 0.1 s
 * to start (it loads the YAML parsers and the schemas), the main thread parses ~12 MB/s.
 */
const PARSE_WORKERS_FROM_BYTES = 4_000_000;

/** A file to parse: its bytes are read again then, and must be those its digest was made from. */
type ToParse = {
  kind: InputKind;
  path: string;
  /** The SHA-256 of its bytes. */
  fileDigest: string;
  size: number;
  digest: string;
  key: string | undefined;
};

/** Files sent to the parse workers and not yet answered, at most: their bytes are held. */
const PARSES_IN_FLIGHT_PER_WORKER = 2;

/** A file's result, its value not yet taken. */
type Settled =
  | {
      file: YamlFile;
      problems: InputProblem[];
      digest: string;
      /** The value, a new copy at each call (the first may be the parsed one); undefined: errors. */
      value: (() => InputOf<InputKind>) | undefined;
    }
  | { unreadable: UnreadableFile };

/** Read now (`read`), or later by the caller (`readLater`): then no parsed object is kept. */
type Taking = "now" | "later";

/**
 * How the load stage gets each data file's validated value: from the input cache when the file's
 * bytes were validated before (then they are not even decoded, unless a message needs a position
 * in them), else parsed (on the main thread, or in worker threads when there is a lot to parse).
 * The value, its problems and their positions are the same whichever way. A file read later
 * keeps its value serialized (in the cache, or with the reader) and deserializes it at each call.
 */
export function openInputReader(
  folder: DataFolder,
  display: (path: string) => string,
  options: InputReaderOptions = {},
): InputReader {
  return new DataFileReader(folder, display, options);
}

class DataFileReader implements InputReader {
  readonly #ahead = new Map<string, (taking: Taking) => Promise<Settled>>();
  readonly #counts = { cached: 0, parsed: 0 };
  /** The largest heap a parse worker reported (SPI_STATIC_DEBUG=memory). */
  readonly #workerHeap = { usedMb: 0, committedMb: 0, youngMb: 0 };
  #workers: ParseWorkers | undefined;
  #how = "on the main thread";
  readonly #cache: InputCache | undefined;
  readonly #known: KnownDigests | undefined;
  readonly #jobs: number;
  readonly #parseWorkersFromBytes: number;

  constructor(
    readonly folder: DataFolder,
    readonly display: (path: string) => string,
    {
      cache,
      known,
      jobs = 1,
      parseWorkersFromBytes = PARSE_WORKERS_FROM_BYTES,
    }: InputReaderOptions,
  ) {
    this.#cache = cache;
    this.#known = known;
    this.#jobs = jobs;
    this.#parseWorkersFromBytes = parseWorkersFromBytes;
  }

  /**
   * The text of a file whose bytes were not kept, read again only when a message needs a
   * position in it. Should it have changed since, positions follow the file as it is now, which
   * is what its author sees; gone, they point at its start.
   */
  #textReadAgain(path: string): () => string {
    return () => {
      const read = this.folder.readBytes(path);
      return "bytes" in read ? lazyText(read.bytes)() : "";
    };
  }
  /** A file whose bytes were not kept: decoded only when a message needs a position in it. */
  #fileReadAgain(path: string): YamlFile {
    return lazyYamlFile(this.display(path), this.#textReadAgain(path));
  }

  /**
   * A value kept in the cache, read when asked. Should the entry have gone or been damaged since
   * the build began, the file is validated again as it is now; if it no longer is valid, the
   * build stops (its other files were checked against what this one was).
   */
  #cachedValue(kind: InputKind, path: string, key: string) {
    return () => {
      const serialized = this.#cache?.read(key);
      if (serialized) {
        try {
          return deserialize(serialized) as InputOf<InputKind>;
        } catch {
          // Parsed again below.
        }
      }
      debug("load", () => `${this.display(path)}: its cached value could not be read; parsing it`);
      const read = this.folder.readBytes(path);
      const decoded = "bytes" in read ? textOf(read.bytes) : undefined;
      const input =
        decoded && "text" in decoded
          ? validateInputText(kind, this.display(path), decoded.text).input
          : undefined;
      if (input === undefined) {
        throw new Error(
          `${this.display(path)} changed or went away while the build was reading it`,
        );
      }
      return input;
    };
  }

  /**
   * A value parsed in this build, for each later call: written to the cache, and read from there
   * (the cache keeps it on disk, not in memory); without a cache, kept serialized here.
   */
  #keptValue(
    kind: InputKind,
    path: string,
    key: string | undefined,
    serialized: Uint8Array,
  ): () => InputOf<InputKind> {
    if (this.#cache && key !== undefined) {
      this.#cache.write(key, serialized);
      return this.#cachedValue(kind, path, key);
    }
    return () => deserialize(serialized) as InputOf<InputKind>;
  }

  #fromCache(kind: InputKind, path: string, digest: string, key: string): Settled | undefined {
    if (!this.#cache?.has(key)) return undefined;
    this.#counts.cached++;
    return {
      file: this.#fileReadAgain(path),
      problems: [],
      digest,
      value: this.#cachedValue(kind, path, key),
    };
  }

  /**
   * The bytes of a file to parse, read when it is parsed rather than held from the start (for
   * 100 services, 65 MB held until the last file was parsed), checked against its digest.
   */
  #bytesToParse({ path, fileDigest }: ToParse): DataFileBytes {
    const read = this.folder.readBytes(path, true);
    if (!("bytes" in read)) return read;
    if (createHash("sha256").update(read.bytes).digest("hex") !== fileDigest) {
      const message = "changed while the build was reading it; build again";
      return { unreadable: { missing: false, line: 1, column: 1, message } };
    }
    return read;
  }

  #parseHere(toParse: ToParse, taking: Taking): Settled {
    const { kind, path, digest, key } = toParse;
    const read = this.#bytesToParse(toParse);
    if (!("bytes" in read)) return read;
    const decoded = textOf(read.bytes);
    if (!("text" in decoded)) return decoded;
    this.#counts.parsed++;
    const { file, input, problems } = validateInputText(kind, this.display(path), decoded.text);
    if (input === undefined) return { file, problems, digest, value: undefined };
    const serialized = serialize(input);
    const copies = this.#keptValue(kind, path, key, serialized);
    return taking === "now"
      ? { file, problems, digest, value: firstThen(input, copies) }
      : { file: this.#fileReadAgain(path), problems, digest, value: copies };
  }

  async #parseInWorker(pool: ParseWorkers, inFlight: Slots, toParse: ToParse): Promise<Settled> {
    const { kind, path, digest, key } = toParse;
    await inFlight.take();
    let answer: ParseResponse;
    try {
      const read = this.#bytesToParse(toParse);
      if (!("bytes" in read)) return read;
      // A copy of its own: the reused buffer is read into again before the worker gets it.
      answer = await pool.run({ kind, file: this.display(path), bytes: Buffer.from(read.bytes) });
    } finally {
      inFlight.give();
    }
    if ("unreadable" in answer) return { unreadable: answer.unreadable };
    this.#counts.parsed++;
    const { problems, serialized, heap } = answer;
    if (heap) {
      this.#workerHeap.usedMb = Math.max(this.#workerHeap.usedMb, heap.usedMb);
      this.#workerHeap.committedMb = Math.max(this.#workerHeap.committedMb, heap.committedMb);
      this.#workerHeap.youngMb = Math.max(this.#workerHeap.youngMb, heap.youngMb);
    }
    const value = serialized && this.#keptValue(kind, path, key, serialized);
    return { file: this.#fileReadAgain(path), problems, digest, value };
  }

  /** The file from the cache, or what is left to parse. */
  #readFile(kind: InputKind, path: string) {
    const found = this.folder.digest(path, this.#known);
    if (!("digest" in found)) return { done: found };
    const digest = kindDigest(kind, found.digest);
    const key = this.#cache?.keyOf(digest);
    const cached = key === undefined ? undefined : this.#fromCache(kind, path, digest, key);
    if (cached) return { done: cached };
    const { size } = found;
    return { toParse: { kind, path, fileDigest: found.digest, size, digest, key } };
  }

  async #settle(kind: InputKind, path: string, taking: Taking): Promise<Settled> {
    const prefetched = this.#ahead.get(path);
    this.#ahead.delete(path);
    if (prefetched) return prefetched(taking);
    const read = this.#readFile(kind, path);
    return read.toParse ? this.#parseHere(read.toParse, taking) : read.done;
  }

  async prefetch(files: { kind: InputKind; path: string }[]): Promise<void> {
    notePhase("parse starts");
    const reads = files.map(({ kind, path }) => this.#readFile(kind, path));
    const toParse: ToParse[] = [];
    for (const [i, read] of reads.entries()) {
      const path = files[i]?.path ?? "";
      if (read.toParse) toParse.push(read.toParse);
      else this.#ahead.set(path, async () => read.done);
    }
    const bytes = toParse.reduce((sum, file) => sum + file.size, 0);
    const script = parseWorkerScript();
    const count = Math.min(this.#jobs, toParse.length);
    if (count > 1 && bytes >= this.#parseWorkersFromBytes && script) {
      const pool = startParseWorkers(count, script);
      const inFlight = new Slots(count * PARSES_IN_FLIGHT_PER_WORKER);
      this.#workers = pool;
      this.#how =
        `in ${count} worker threads (${megabytes(bytes)} to parse; ` +
        `young generation ${PARSE_WORKER_YOUNG_GENERATION_MB} MB, ` +
        `old generation up to ${PARSE_WORKER_OLD_GENERATION_MB} MB each)`;
      for (const file of toParse) {
        const parsed = this.#parseInWorker(pool, inFlight, file);
        // Not every file read ahead is asked for (a load that stops early): no stray rejection.
        parsed.catch(() => {});
        this.#ahead.set(file.path, () => parsed);
      }
    } else {
      this.#how = `on the main thread (${megabytes(bytes)} to parse; ${
        count <= 1
          ? "one thread allowed or one file"
          : script
            ? `worker threads pay from ${megabytes(this.#parseWorkersFromBytes)}`
            : "no compiled parse worker: running from the TypeScript source"
      })`;
      for (const file of toParse)
        this.#ahead.set(file.path, async (taking) => this.#parseHere(file, taking));
    }
  }

  async read<K extends InputKind>(kind: K, path: string): Promise<ReadInput<K>> {
    const settled = await this.#settle(kind, path, "now");
    if ("unreadable" in settled) return settled;
    const { file, problems, digest, value } = settled;
    return { file, input: value?.() as InputOf<K> | undefined, problems, digest };
  }

  async readLater<K extends InputKind>(kind: K, path: string): Promise<DeferredInput<K>> {
    const settled = await this.#settle(kind, path, "later");
    if ("unreadable" in settled) return settled;
    const { file, problems, digest, value } = settled;
    return { file, input: value as (() => InputOf<K>) | undefined, problems, digest };
  }

  async close(): Promise<void> {
    const pool = this.#workers;
    await this.#workers?.close();
    notePhase("parse done", () =>
      pool
        ? `each parse worker's heap up to ${this.#workerHeap.committedMb} MB committed ` +
          `(${this.#workerHeap.usedMb} used, young ${this.#workerHeap.youngMb}); the workers are stopped`
        : "no parse workers",
    );
    debug(
      "load",
      () =>
        `${this.#counts.cached + this.#counts.parsed} data files: ${this.#counts.cached} from the input cache, ` +
        `${this.#counts.parsed} parsed ${this.#how}`,
    );
  }
}

/** The text of a file parsed in this build, decoded when a message needs a position in it. */
function lazyText(bytes: Buffer): () => string {
  return () => {
    const decoded = textOf(bytes);
    return "text" in decoded ? decoded.text : "";
  };
}

/** A count of places taken in turn, first come first served. */
class Slots {
  readonly #waiting: (() => void)[] = [];
  #free: number;

  constructor(count: number) {
    this.#free = count;
  }

  async take(): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

/** `input` at the first call (the object parsed, never used by anyone else), then `copies`. */
function firstThen<T>(input: T, copies: () => T): () => T {
  let first: T | undefined = input;
  return () => {
    const value = first ?? copies();
    first = undefined;
    return value;
  };
}

/** What a file's value depends on: its kind and its bytes (their SHA-256). */
function kindDigest(kind: InputKind, fileDigest: string): string {
  return createHash("sha256").update(`${kind}\0${fileDigest}`).digest("hex");
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
