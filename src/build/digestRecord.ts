import type { BigIntStats } from "node:fs";
import { debug } from "../debug/debugLog.js";
import type { KnownDigests } from "../load/files/knownDigests.js";
import type { BuildState } from "./buildState.js";
import { settledBy, stateOf } from "./fileState.js";

export interface DigestRecord extends KnownDigests {
  /** Before the state is written: keeps the digests it found or noted there, for the next build. */
  commit(): void;
}

/**
 * The data files' digests (load/files/knownDigests.ts) in the state's `digests` part (buildState.ts),
 * by device and inode. Written only by a build that publishes; a damaged part is dropped when read
 * (stateParts.ts: every file is hashed again, never taken as changed), and
 * `readEarlier: false` (`--force`) uses none.
 */
export function openDigestRecord(
  state: BuildState,
  startedAt: number,
  { readEarlier = true }: { readEarlier?: boolean } = {},
): DigestRecord {
  const recorded: Partial<BuildState["digests"]> = readEarlier ? state.digests : {};
  const kept: BuildState["digests"] = {};
  const counts = { known: 0, hashed: 0 };
  return {
    find(stats) {
      const { id, state } = fileIdentity(stats);
      const entry = recorded[id];
      if (entry?.[0] !== state) return undefined;
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
      state.digests = kept;
    },
  };
}

/** The state a digest is noted under (fileState.ts: the same rule as for published files). */
function fileIdentity(stats: BigIntStats): { id: string; state: string } {
  return { id: `${stats.dev}:${stats.ino}`, state: stateOf(stats) };
}
