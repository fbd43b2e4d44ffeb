import { createHash } from "node:crypto";
import { type BigIntStats, closeSync, constants, fstatSync, lstatSync, openSync } from "node:fs";
import { ReusedBuffer } from "../load/files/reusedBuffer.js";

/**
 * One rule for "this file is as it was", for data files and published files alike. A file's
 * state is its size, modification and change times and its device and inode: any write changes
 * its change time, which no program can set back, and a replaced file has a new inode. A state
 * is recorded as trusted only when the file had settled by the time the record is written
 * (last changed a settle window or more before: settleWindowMs), as git treats a "racily clean"
 * index entry: a write in the same clock tick as the look cannot go unseen. A file whose state is not the one recorded is not changed for that: its
 * bytes are hashed, and if they are the recorded digest it is the same file (a CI cache restore
 * or a fresh checkout gives every file new inodes and times, and costs hashing, not rendering).
 */
export interface SeenFile {
  /** stateOf(), or "" when not to be trusted (its bytes are hashed next time). */
  state: string;
  /** SHA-256 (hex) of its bytes. */
  digest: string;
  /** When it was last changed (UTC ms), for a state seen in this build; recordedState() decides. */
  changedMs?: number;
  /** Its file system's settle window (settleWindowMs); SETTLED_MS when not known. */
  settleMs?: number;
}

/** Coarser than any file system's timestamps (FAT's are 2 s apart, HFS+'s 1 s). */
export const SETTLED_MS = 3_000;

/**
 * The window for a file system that keeps times finer than a second (ext4, XFS, Btrfs, tmpfs,
 * APFS, NTFS): its clock ticks at most every 10 ms, so a file last changed this long before the
 * look cannot change again with the same times. Right after a full build, the files of its last
 * 3 seconds no longer have to be hashed by the next build.
 */
export const FINE_SETTLED_MS = 100;

const SECOND_NS = 1_000_000_000n;

/**
 * How long after its last change a file counts as settled. A file whose times have a fraction
 * of a second is on a file system with finer times (FINE_SETTLED_MS); one whose times are both
 * whole seconds may be on one with 1 or 2 s steps (or is that rare fine one: the coarse window
 * is only slower, never wrong).
 */
export function settleWindowMs(stats: Pick<BigIntStats, "mtimeNs" | "ctimeNs">): number {
  const fine = stats.mtimeNs % SECOND_NS !== 0n || stats.ctimeNs % SECOND_NS !== 0n;
  return fine ? FINE_SETTLED_MS : SETTLED_MS;
}

export function stateOf(stats: BigIntStats): string {
  return `${stats.size} ${stats.mtimeNs} ${stats.ctimeNs} ${stats.dev}:${stats.ino}`;
}

/** Whether the file was last changed well before `at` (UTC ms): its state can be trusted. */
export function settledBy(stats: BigIntStats, at: number): boolean {
  return Math.max(Number(stats.mtimeMs), Number(stats.ctimeMs)) < at - settleWindowMs(stats);
}

/** A file as seen now, its state to be trusted once it has settled (recordedState). */
export function seenNow(stats: BigIntStats, digest: string): SeenFile {
  const changedMs = Math.max(Number(stats.mtimeMs), Number(stats.ctimeMs));
  return { state: stateOf(stats), digest, changedMs, settleMs: settleWindowMs(stats) };
}

/**
 * The state to write into a record at `at`: the state seen, if the file had settled by then
 * (its settle window), else "" so that the next build hashes it. A state found trusted (no
 * changedMs) stays trusted.
 */
export function recordedState(file: SeenFile, at: number): string {
  const settled =
    file.changedMs === undefined || file.changedMs < at - (file.settleMs ?? SETTLED_MS);
  return settled ? file.state : "";
}

const read = new ReusedBuffer();

/**
 * The file as it is now when it is the one recorded (by its state, or else by its bytes), with
 * the state to record for it next; undefined when it changed, went away, or is not a regular
 * file (opened without following a link or waiting on a FIFO).
 */
export function seeUnchanged(path: string, recorded: SeenFile): SeenFile | undefined {
  const seen = look(path, recorded);
  return seen?.digest === recorded.digest ? seen : undefined;
}

/** A regular file's state and digest as it is now, or undefined. */
export function seeFile(path: string): SeenFile | undefined {
  return look(path, undefined);
}

/**
 * How a file seen with state `observed` (stateOf, undefined when gone or not a regular file)
 * compares with its record, by state alone: "same" settles it; "hash" leaves it to its bytes
 * (seeUnchanged), for a state that changed or was never trusted proves nothing either way.
 */
export function compareState(
  recorded: SeenFile,
  observed: string | undefined,
): "same" | "gone" | "hash" {
  if (observed === undefined) return "gone";
  return recorded.state !== "" && observed === recorded.state ? "same" : "hash";
}

/** A regular file's state (stateOf) as it is now, without reading it; undefined otherwise. */
export function observeState(path: string): string | undefined {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return stats?.isFile() ? stateOf(stats) : undefined;
  } catch {
    return undefined;
  }
}

function look(path: string, recorded: SeenFile | undefined): SeenFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) return undefined;
    if (recorded && compareState(recorded, stateOf(stats)) === "same") {
      return { state: recorded.state, digest: recorded.digest };
    }
    const digest = createHash("sha256")
      .update(read.read(fd, Number(stats.size)))
      .digest("hex");
    return seenNow(stats, digest);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
