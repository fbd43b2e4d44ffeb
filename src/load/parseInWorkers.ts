import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
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

export interface ParseWorkers {
  parse(request: Omit<ParseRequest, "id">): Promise<ParseResponse>;
  /** Stops the workers; a parse not yet answered is rejected. */
  close(): Promise<void>;
}

const WORKER_SCRIPT = new URL("./parseWorker.js", import.meta.url);

/** The compiled worker, or undefined when running from the TypeScript source (as the tests do). */
export function parseWorkerScript(): URL | undefined {
  return existsSync(fileURLToPath(WORKER_SCRIPT)) ? WORKER_SCRIPT : undefined;
}

/**
 * Worker threads that parse and validate data files side by side, each taking the next file
 * from one queue as it finishes the last, so every core parses. The files are queued in the order
 * the loader asks for them, and the loader takes the answers in its own order: what it reports
 * does not depend on how many workers there are or which finishes first.
 */
export function startParseWorkers(count: number, script: URL): ParseWorkers {
  type Job = {
    request: ParseRequest;
    resolve: (response: ParseResponse) => void;
    reject: (error: Error) => void;
  };
  const queue: Job[] = [];
  const working = new Map<Worker, Job>();
  let nextId = 0;
  let failure: Error | undefined;
  let closing = false;

  const fail = (error: Error) => {
    failure ??= error;
    for (const job of [...working.values(), ...queue.splice(0)]) job.reject(failure);
    working.clear();
  };
  const feed = (worker: Worker) => {
    const job = queue.shift();
    if (!job) return;
    working.set(worker, job);
    worker.postMessage(job.request);
  };
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(script);
    worker.on("message", (response: ParseResponse) => {
      const job = working.get(worker);
      working.delete(worker);
      job?.resolve(response);
      feed(worker);
    });
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!closing) fail(new Error(`a parse worker stopped unexpectedly (exit code ${code})`));
    });
    return worker;
  });

  return {
    parse(request) {
      return new Promise<ParseResponse>((resolve, reject) => {
        if (failure) return reject(failure);
        queue.push({ request: { ...request, id: nextId++ }, resolve, reject });
        const idle = workers.find((worker) => !working.has(worker));
        if (idle) feed(idle);
      });
    },
    async close() {
      closing = true;
      fail(new Error("the parse workers were stopped"));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
