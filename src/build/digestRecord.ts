import type { BigIntStats } from "node:fs";
import { debug } from "../debug/debugLog.js";
import type { KnownDigests } from "../load/knownDigests.js";
import { settledBy, stateOf } from "./fileState.js";
import { refuseUnsafeEntries, scanStateFolder } from "./scanOutputFolder.js";
import {
  DIGESTS_PATH,
  readShortcutRecord,
  type ShortcutNotes,
  writeShortcutRecord,
} from "./stateFolder.js";

export interface DigestRecord extends KnownDigests {
  /** After a published build: keeps the digests it found or noted, for the next build. */
  commit(): void;
}

type RecordFile = Record<string, [state: string, digest: string]>;

/**
 * The data files' digests (load/knownDigests.ts) in out/_spi-static/digests.json, by device and
 * inode. Written only by a build that published; one that cannot be read is only unused, and
 * `readEarlier: false` (`--force`) uses none.
 */
export function openDigestRecord(
  outDir: string,
  startedAt: number,
  { readEarlier = true, notes }: { readEarlier?: boolean; notes?: ShortcutNotes } = {},
): DigestRecord {
  // Never through a link or FIFO planted in the bookkeeping folder.
  refuseUnsafeEntries(outDir, scanStateFolder(outDir));
  const recorded = readEarlier ? readShortcutRecord<RecordFile>(outDir, DIGESTS_PATH, notes) : {};
  const kept: RecordFile = {};
  const counts = { known: 0, hashed: 0 };
  return {
    find(stats) {
      const { id, state } = fileIdentity(stats);
      const entry = recorded[id];
      if (!Array.isArray(entry) || entry[0] !== state || typeof entry[1] !== "string") {
        return undefined;
      }
      kept[id] = entry;
      counts.known++;
      return entry[1];
    },
    note(stats, digest) {
      counts.hashed++;
      if (!settledBy(stats, startedAt)) return;
      const { id, state } = fileIdentity(stats);
      kept[id] = [state, digest];
    },
    commit() {
      debug(
        "load",
        () =>
          `data file digests: ${counts.known} known by their files' state, ${counts.hashed} read and hashed`,
      );
      writeShortcutRecord(outDir, DIGESTS_PATH, kept, "load");
    },
  };
}

/** The state a digest is noted under (fileState.ts: the same rule as for published files). */
function fileIdentity(stats: BigIntStats): { id: string; state: string } {
  return { id: `${stats.dev}:${stats.ino}`, state: stateOf(stats) };
}
