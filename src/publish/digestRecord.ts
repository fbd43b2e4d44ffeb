import { readFileSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import { fileIdentity, type KnownDigests, SETTLED_MS } from "../load/knownDigests.js";
import { refuseUnsafeEntries, scanStateFolder } from "./scanOutputFolder.js";
import { DIGESTS_PATH } from "./stateFolder.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

export interface DigestRecord extends KnownDigests {
  /** After a published build: keeps the digests it found or noted, for the next build. */
  commit(): void;
}

type RecordFile = Record<string, [state: string, digest: string]>;

/**
 * The data files' digests (load/knownDigests.ts) in out/_spi-static/digests.json, by device and
 * inode. Written only by a build that published; one that cannot be read is only unused.
 */
export function openDigestRecord(outDir: string, startedAt: number): DigestRecord {
  // Never through a link or FIFO planted in the bookkeeping folder.
  refuseUnsafeEntries(outDir, scanStateFolder(outDir));
  const path = join(outDir, DIGESTS_PATH);
  const recorded = readRecord(path);
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
      const changed = Math.max(Number(stats.mtimeMs), Number(stats.ctimeMs));
      if (changed >= startedAt - SETTLED_MS) return;
      const { id, state } = fileIdentity(stats);
      kept[id] = [state, digest];
    },
    commit() {
      debug(
        "load",
        () =>
          `data file digests: ${counts.known} known by their files' state, ${counts.hashed} read and hashed`,
      );
      try {
        writeFileAtomically(path, `${JSON.stringify(kept)}\n`);
      } catch (error) {
        debug("load", () => `digest record not written (${(error as Error).message})`);
      }
    },
  };
}

function readRecord(path: string): RecordFile {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, "utf8"));
    return typeof parsed === "object" && parsed !== null ? (parsed as RecordFile) : {};
  } catch {
    // None yet, or damaged: every data file is read and hashed, as on a first build.
    return {};
  }
}
