import type { BigIntStats } from "node:fs";
import { stateOf } from "./fileState.js";

/**
 * SHA-256 digests of data files, known from the last build by each file's state (fileState.ts:
 * device, inode, size, modification and change times), so an unchanged file is neither read nor hashed to find
 * it unchanged (65 MB of episode YAML took 0.15 s to hash twice per build). A file whose state is
 * the one noted holds the bytes noted: any write changes its change time, which no program can
 * set back, and a replaced file has a new inode. Like git's index, a digest is only kept for a
 * file last changed well before the build began (SETTLED_MS), so a write in the same clock tick
 * as the hashing cannot go unseen. publish/digestRecord.ts keeps them in out/.
 */
export interface KnownDigests {
  /** The digest noted for a file in exactly this state, if any. */
  find(stats: BigIntStats): string | undefined;
  /** A digest this build computed, kept for the next build if the file has settled. */
  note(stats: BigIntStats, digest: string): void;
}

/** The state a digest is noted under (fileState.ts: the same rule as for published files). */
export function fileIdentity(stats: BigIntStats): { id: string; state: string } {
  return { id: `${stats.dev}:${stats.ino}`, state: stateOf(stats) };
}
