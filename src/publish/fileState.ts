import { type BigIntStats, lstatSync } from "node:fs";

/**
 * A file's size, modification time and inode as one string: any rewrite or edit of the file
 * changes one of them (an atomic replace makes a new inode), so a file whose state is the one
 * recorded still holds the bytes that were recorded with it. A link is its own state, never its
 * target's: the build never writes through one.
 */
export function fileState(path: string): string | undefined {
  try {
    return stateOf(lstatSync(path, { bigint: true }));
  } catch {
    return undefined;
  }
}

export function stateOf(stats: BigIntStats): string {
  return `${stats.size} ${stats.mtimeNs} ${stats.ino}`;
}
