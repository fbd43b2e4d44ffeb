import type { BigIntStats } from "node:fs";

/**
 * SHA-256 digests of data files, known from the last build by each file's state (build/fileState.ts:
 * device, inode, size, modification and change times), so an unchanged file is neither read nor hashed to find
 * it unchanged (65 MB of episode YAML took 0.15 s to hash twice per build). A file whose state is
 * the one noted holds the bytes noted: any write changes its change time, which no program can
 * set back, and a replaced file has a new inode. Like git's index, a digest is only kept for a
 * file last changed well before the build began (SETTLED_MS), so a write in the same clock tick
 * as the hashing cannot go unseen. The load stage only asks and notes: build/digestRecord.ts is
 * the implementation, and keeps them in out/_spi-static/.
 */
export interface KnownDigests {
  /** The digest noted for a file in exactly this state, if any. */
  find(stats: BigIntStats): string | undefined;
  /** A digest this build computed, kept for the next build if the file has settled. */
  note(stats: BigIntStats, digest: string): void;
}
