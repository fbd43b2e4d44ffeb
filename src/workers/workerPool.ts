import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";

/** A worker's answer names the request it answers. */
export interface Answer {
  id: number;
}

export interface WorkerPool<Request, Response extends Answer> {
  /** Queues a request; the worker's answer, or the failure that stopped the pool. */
  run(request: Request): Promise<Response>;
  /** Stops the workers now; requests not yet answered are rejected. */
  close(): Promise<void>;
  /** Stops the workers once the requests given so far are answered. */
  closeWhenDone(): void;
}

/** The compiled worker next to `base`, or undefined when running from the TypeScript source. */
export function compiledWorker(name: string, base: string): URL | undefined {
  const script = new URL(name, base);
  return existsSync(fileURLToPath(script)) ? script : undefined;
}

/**
 * Worker threads that take requests from one queue, each the next as it answers the last, so
 * every worker stays busy. Callers take the answers in their own order, so what they make of
 * them does not depend on which worker finishes first. `what` names the workers in messages;
 * `unref` lets the process exit while they run (a build that fails half-way); `resourceLimits`
 * sizes each worker's heap.
 */
export function startWorkerPool<Request, Response extends Answer>(
  count: number,
  script: URL,
  {
    what,
    unref = false,
    resourceLimits,
  }: { what: string; unref?: boolean; resourceLimits?: ResourceLimits },
): WorkerPool<Request, Response> {
  type Job = {
    message: Request & Answer;
    resolve: (response: Response) => void;
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
    worker.postMessage(job.message);
  };
  const workers = Array.from({ length: count }, () => {
    const worker = new Worker(script, { resourceLimits });
    if (unref) worker.unref();
    worker.on("message", (response: Response) => {
      const job = working.get(worker);
      working.delete(worker);
      job?.resolve(response);
      feed(worker);
    });
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!closing) fail(new Error(`a ${what} worker stopped unexpectedly (exit code ${code})`));
    });
    return worker;
  });

  return {
    run(request) {
      const answer = new Promise<Response>((resolve, reject) => {
        if (failure) return reject(failure);
        queue.push({ message: { ...request, id: nextId++ }, resolve, reject });
        const idle = workers.find((worker) => !working.has(worker));
        if (idle) feed(idle);
      });
      // Handled here too: a caller that stops at an earlier failure never awaits later answers.
      answer.catch(() => {});
      return answer;
    },
    async close() {
      closing = true;
      fail(new Error(`the ${what} workers were stopped`));
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
    closeWhenDone() {
      closing = true;
      stopIfDone();
    },
  };
}
