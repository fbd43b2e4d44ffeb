import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import { debug, debugging } from "./debugLog.js";

/** What one isolate's heap holds: what its objects use, what it has committed, its young part. */
export interface HeapFigures {
  usedMb: number;
  committedMb: number;
  /** New space (V8's young generation): committed, mostly room for short-lived objects. */
  youngMb: number;
}

/** This isolate's heap now (the main thread's, or a worker's when called in one). */
export function heapFigures(): HeapFigures {
  const { used_heap_size, total_heap_size } = getHeapStatistics();
  const young = getHeapSpaceStatistics().find(({ space_name }) => space_name === "new_space");
  return {
    usedMb: megabytes(used_heap_size),
    committedMb: megabytes(total_heap_size),
    youngMb: megabytes(young?.space_size ?? 0),
  };
}

/**
 * `SPI_STATIC_DEBUG=memory`: one line at a boundary between phases of a build (parse, check,
 * render, publish): the process's RSS and its peak so far, the main thread's heap, and the memory
 * outside it (`external`, of which `arrayBuffers`: file bytes, rendered documents). `also` adds
 * what only the caller knows (the parse workers' heaps).
 */
export function notePhase(phase: string, also?: () => string): void {
  if (!debugging("memory")) return;
  const { rss, external, arrayBuffers } = process.memoryUsage();
  const peak = megabytes(process.resourceUsage().maxRSS * 1024);
  const heap = heapFigures();
  debug(
    "memory",
    () =>
      `${phase}: RSS ${megabytes(rss)} MB (peak ${peak}); main heap ${heap.usedMb} MB used of ` +
      `${heap.committedMb} committed (young ${heap.youngMb}); external ${megabytes(external)} MB ` +
      `(array buffers ${megabytes(arrayBuffers)})${also ? `; ${also()}` : ""}`,
  );
}

function megabytes(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}
