import type { HeapFigures } from "../../debug/memoryPhases.js";
import { compiledWorker, startWorkerPool, type WorkerPool } from "../../workers/workerPool.js";
import type { InputKind } from "../schema/inputKinds.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { UnreadableFile } from "./dataFolder.js";

export interface ParseRequest {
  id: number;
  kind: InputKind;
  /** The path as shown in messages. */
  file: string;
  bytes: Uint8Array;
}

export type ParseResponse = { id: number } & (
  | {
      problems: InputProblem[];
      /** The validated value, serialized with node:v8 (what the input cache keeps, too). */
      serialized: Uint8Array | undefined;
      /** The worker's heap after this file, under SPI_STATIC_DEBUG=memory. */
      heap?: HeapFigures;
    }
  /** The bytes are not UTF-8. */
  | { unreadable: UnreadableFile }
);

export type ParseWorkers = WorkerPool<Omit<ParseRequest, "id">, ParseResponse>;

/** The compiled worker, or undefined when running from the TypeScript source (as the tests do). */
export function parseWorkerScript(): URL | undefined {
  return compiledWorker("./parseWorker.js", import.meta.url);
}

/**
 * The young generation each parse worker may use, in MB. What a file's parse makes is garbage
 * once its value is serialized, but with V8's default (up to 48 MB) much of it lived long enough
 * to be promoted, and each worker's heap grew to 60-100 MB: a 100-service full build peaked at
 * ~250 MB while parsing, ~195 MB with 8 MB, in the same time (BENCHMARKS.md, round five).
 */
export const PARSE_WORKER_YOUNG_GENERATION_MB = 8;

/**
 * The old generation each parse worker may grow to, in MB. V8 lets a heap grow past what its
 * last full collection kept by a factor that depends on this limit: 4x from 2 GB (a worker
 * inherits the main thread's, ~4 GB here), 1.3x at 256 MB, in between linearly. What a worker
 * keeps is ~12 MB (the parsers and schemas) and the file at hand, so with the inherited limit
 * each worker's heap grew to ~59 MB of promoted garbage; at 1 GB (a factor ~1.6) to ~32 MB, in the
 * same time (issue 23, "memory round 2"). 1 GB is 2.5x the worst a data file may take
 * (MAX_DATA_FILE_BYTES: ~400 MB for 2 MB with a warning on every line); smaller limits save
 * nothing more that repeats (256 MB: 31 MB committed).
 */
export const PARSE_WORKER_OLD_GENERATION_MB = 1024;

/** Worker threads that parse and validate data files side by side (see startWorkerPool). */
export function startParseWorkers(count: number, script: URL): ParseWorkers {
  return startWorkerPool(count, script, {
    what: "parse",
    resourceLimits: {
      maxYoungGenerationSizeMb: PARSE_WORKER_YOUNG_GENERATION_MB,
      maxOldGenerationSizeMb: PARSE_WORKER_OLD_GENERATION_MB,
    },
  });
}
