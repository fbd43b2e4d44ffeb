import type { EpisodesByDate, Provider, Service } from "../load/broadcaster.js";
import { NOT_LOCATED } from "../load/inputProblem.js";
import { type LayoutSpan, loadEpisodesAgain } from "../schedule/scheduleBroadcaster.js";
import type { PlainDate } from "../time/plainDate.js";
import { compiledWorker, startWorkerPool } from "../workers/workerPool.js";

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
  /** With the service's episodes: the model sent has no function to load them. */
  job: ServiceRenderJob & { episodes: EpisodesByDate };
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

/** The compiled worker, or undefined when running from the TypeScript source (as the tests do). */
export function renderWorkerScript(): URL | undefined {
  return compiledWorker("./renderWorker.js", import.meta.url);
}

/**
 * Worker threads that render services' PI documents side by side (see startWorkerPool). The
 * answers come back as bytes, handed over (not copied). The workers never keep the process
 * alive: a build that fails half-way exits.
 */
export function startRenderWorkers(count: number, script: URL): RenderWorkers {
  const pool = startWorkerPool<Omit<RenderRequest, "id">, RenderResponse>(count, script, {
    what: "render",
    unref: true,
  });
  return {
    render(job) {
      const answer = (async () => {
        const service = withoutOrigins(job.service);
        const episodes = withoutOrigins(loadEpisodesAgain(job.service));
        const response = await pool.run({ job: { ...job, service, episodes } });
        if ("error" in response) throw new Error(`rendering in a worker failed: ${response.error}`);
        const documents = response.documents.map((bytes) =>
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        );
        return { documents, counts: response.counts };
      })();
      // Handled here too: a build that stops at an earlier failure never awaits later answers.
      answer.catch(() => {});
      return answer;
    },
    closeWhenDone: () => pool.closeWhenDone(),
  };
}

/**
 * A copy of the model without its entries' origins (cloning one would call its getters, which
 * parse the file: NOT_LOCATED) and its functions (Schedule.episodes: the
 * worker is sent the episodes themselves), objects shared within it still shared (the
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
      if (typeof item === "function") continue;
      fields[key] = key === "origin" ? NOT_LOCATED : withoutOrigins(item, copies);
    }
    copy = fields;
  }
  return copy as T;
}
