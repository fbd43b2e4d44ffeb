import { compiledWorker, startWorkerPool, type WorkerPool } from "../workers/workerPool.js";
import type { UnreadableFile } from "./dataFolder.js";
import type { InputProblem } from "./inputProblem.js";
import type { InputKind } from "./inputSchema.js";

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

/** Worker threads that parse and validate data files side by side (see startWorkerPool). */
export function startParseWorkers(count: number, script: URL): ParseWorkers {
  return startWorkerPool(count, script, {
    what: "parse",
    resourceLimits: { maxYoungGenerationSizeMb: PARSE_WORKER_YOUNG_GENERATION_MB },
  });
}
