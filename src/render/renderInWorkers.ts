import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { Provider, Service } from "../load/broadcaster.js";
import type { SourceRef } from "../load/inputProblem.js";
import type { LayoutSpan } from "../schedule/scheduleBroadcaster.js";
import type { PlainDate } from "../time/plainDate.js";

/** One service's PI documents to render: its model travels to a worker once for all of them. */
export interface ServiceRenderJob {
  provider: Provider;
  service: Service;
  span: LayoutSpan;
  /** The days whose documents are wanted, in the order the answer lists them. */
  dates: PlainDate[];
  createdAt: number;
}

/** How a service's documents were rendered: the debug channel's counts. */
export interface FragmentCounts {
  elements: number;
  forEpisodes: number;
  reused: number;
}

export interface RenderRequest {
  id: number;
  job: ServiceRenderJob;
}

export type RenderResponse =
  | { id: number; documents: Uint8Array[]; counts: FragmentCounts }
  | { id: number; error: string };

export interface RenderWorkers {
  /** The job's documents, in the order of its dates. */
  render(job: ServiceRenderJob): Promise<{ documents: Buffer[]; counts: FragmentCounts }>;
  /** Stops the workers once the jobs given so far are answered. */
  closeWhenDone(): void;
}

const WORKER_SCRIPT = new URL("./renderWorker.js", import.meta.url);

/** The compiled worker, or undefined when running from the TypeScript source (as the tests do). */
export function renderWorkerScript(): URL | undefined {
  return existsSync(fileURLToPath(WORKER_SCRIPT)) ? WORKER_SCRIPT : undefined;
}

/**
 * Worker threads that render services' PI documents side by side, each taking the next service
 * from one queue as it finishes the last. The answers come back as bytes, handed over (not
 * copied); the caller takes them in its own order, so the output does not depend on which worker
 * finishes first. The workers never keep the process alive: a build that fails half-way exits.
 */
export function startRenderWorkers(count: number, script: URL): RenderWorkers {
  type Job = {
    request: RenderRequest;
    resolve: (answer: { documents: Buffer[]; counts: FragmentCounts }) => void;
    reject: (error: Error) => void;
  };
  const queue: Job[] = [];
  const working = new Map<Worker, Job>();
  let nextId = 0;
  let failure: Error | undefined;
  let closing = false;

  const stopIfDone = () => {
    if (closing && queue.length === 0 && working.size === 0) {
      for (const worker of workers) void worker.terminate();
    }
  };
  const fail = (error: Error) => {
    failure ??= error;
    for (const job of [...working.values(), ...queue.splice(0)]) job.reject(failure);
    working.clear();
    stopIfDone();
  };
  const feed = (worker: Worker) => {
    const job = queue.shift();
    if (!job) return stopIfDone();
    working.set(worker, job);
    worker.postMessage(job.request);
  };
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(script);
    worker.unref();
    worker.on("message", (response: RenderResponse) => {
      const job = working.get(worker);
      working.delete(worker);
      if (!job) return feed(worker);
      if ("error" in response) {
        job.reject(new Error(`rendering in a worker failed: ${response.error}`));
      } else {
        const documents = response.documents.map((bytes) =>
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        );
        job.resolve({ documents, counts: response.counts });
      }
      feed(worker);
    });
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!closing) fail(new Error(`a render worker stopped unexpectedly (exit code ${code})`));
    });
    return worker;
  });

  return {
    render(job) {
      const answer = new Promise<{ documents: Buffer[]; counts: FragmentCounts }>(
        (resolve, reject) => {
          if (failure) return reject(failure);
          const request = { id: nextId++, job: { ...job, service: withoutOrigins(job.service) } };
          queue.push({ request, resolve, reject });
          const idle = workers.find((worker) => !working.has(worker));
          if (idle) feed(idle);
        },
      );
      // Handled here too: a build that stops at an earlier failure never awaits the later answers.
      answer.catch(() => {});
      return answer;
    },
    closeWhenDone() {
      closing = true;
      stopIfDone();
    },
  };
}

/**
 * Where a problem would point in the YAML: rendering never reads it. Cloning the real one would
 * call its getters, and they parse the file (an entry from the input cache locates itself lazily).
 */
const NOT_LOCATED: SourceRef = { file: "", line: 0, column: 0, field: "" };

/**
 * A copy of the model without its entries' origins, objects shared within it still shared (the
 * render caches each show's programme element by the show object). Cloned to the worker as it
 * is: for the 100-service bench dataset copying and cloning (v8 serialization) took 0.6–0.8 s and
 * reading it in the workers 0.3 s, JSON.stringify 0.6 s and JSON.parse with Maps revived 0.9 s.
 */
function withoutOrigins<T>(value: T, copies = new Map<object, unknown>()): T {
  if (typeof value !== "object" || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known as T;
  let copy: unknown;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    copies.set(value, items);
    for (const item of value) items.push(withoutOrigins(item, copies));
    copy = items;
  } else if (value instanceof Map) {
    const entries = new Map<unknown, unknown>();
    copies.set(value, entries);
    for (const [key, item] of value) entries.set(key, withoutOrigins(item, copies));
    copy = entries;
  } else if (value instanceof Set) {
    const items = new Set<unknown>();
    copies.set(value, items);
    for (const item of value) items.add(withoutOrigins(item, copies));
    copy = items;
  } else {
    const fields: Record<string, unknown> = {};
    copies.set(value, fields);
    for (const [key, item] of Object.entries(value)) {
      fields[key] = key === "origin" ? NOT_LOCATED : withoutOrigins(item, copies);
    }
    copy = fields;
  }
  return copy as T;
}
