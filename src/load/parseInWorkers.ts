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

/** Worker threads that parse and validate data files side by side (see startWorkerPool). */
export function startParseWorkers(count: number, script: URL): ParseWorkers {
  return startWorkerPool(count, script, { what: "parse" });
}
