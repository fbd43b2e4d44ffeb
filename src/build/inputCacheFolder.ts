import { createHash } from "node:crypto";
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
} from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import type { InputCache } from "../load/files/inputCache.js";
import { ReusedBuffer } from "../load/files/reusedBuffer.js";
import type { StagingFolder } from "./stagingFolder.js";
import { STATE_DIR } from "./stateFolder.js";

/** Where out/ keeps the input cache: a file per validated data file, named by its key. */
export const INPUT_CACHE_DIR = `${STATE_DIR}/inputs`;
const ENTRY = /^[0-9a-f]{64}\.v8$/;
/** Each entry starts with the SHA-256 of the rest: a bit flip or a bad restore is never read as a value. */
const CHECK_BYTES = 32;

function withCheck(serialized: Uint8Array): Buffer {
  return Buffer.concat([createHash("sha256").update(serialized).digest(), serialized]);
}

/** The serialized value of an entry whose check matches; undefined for a damaged one. */
function checked(entry: Buffer | undefined): Buffer | undefined {
  if (entry === undefined || entry.length < CHECK_BYTES) return undefined;
  const value = entry.subarray(CHECK_BYTES);
  const sum = createHash("sha256").update(value).digest();
  return sum.equals(entry.subarray(0, CHECK_BYTES)) ? value : undefined;
}

export interface InputCacheFolder extends InputCache {
  /**
   * After a published build: moves in the entries it made and deletes those it did not use, so
   * the folder holds one build's inputs, no more.
   */
  commit(): void;
}

/**
 * The input cache (load/files/inputCache.ts) in out/_spi-static/inputs/, beside the build's other
 * bookkeeping, so it travels with the output folder from one night to the next. A key covers
 * the program, the kind of file and its bytes, so a new program version or any edit misses.
 * Reads and writes never fail the build: an entry that cannot be read is parsed again, one that
 * cannot be written is only missing next time. The entries a build makes go to its staging
 * folder at once (held in memory they took 58 MB per 100 services until the end of the build)
 * and are moved into inputs/ only by a build that published (`commit`), so a refused build
 * leaves out/ as it was (the engine drops the staging folder); each move is a rename, so a
 * build killed midway leaves no entry half-written. Each entry carries a digest of its own
 * bytes and is parsed again when it does not match; `readEarlier: false` (`--force`) reads none of an earlier build's entries.
 */
export function openInputCacheFolder(
  outDir: string,
  program: string,
  staging: StagingFolder,
  { readEarlier = true }: { readEarlier?: boolean } = {},
): InputCacheFolder {
  // Never through a link planted in the bookkeeping folder: the lock's check (holdOutputFolder).
  const dir = join(outDir, INPUT_CACHE_DIR);
  const used = new Set<string>();
  /** Made by this build and staged (one that could not be is only missing next time). */
  const madeEntries = new Set<string>();
  const entries = new ReusedBuffer();
  let kept: Set<string> | undefined;
  const readEntry = (path: string) => {
    let fd: number;
    try {
      fd = openSync(path, "r");
    } catch {
      return undefined;
    }
    try {
      return entries.read(fd, fstatSync(fd).size);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  };
  return {
    keyOf(fileDigest) {
      return createHash("sha256").update(`${program}\0${fileDigest}`).digest("hex");
    },
    has(key) {
      used.add(key);
      if (madeEntries.has(key)) return true;
      if (kept === undefined) {
        try {
          kept = new Set(readEarlier ? readdirSync(dir).filter((name) => ENTRY.test(name)) : []);
        } catch {
          kept = new Set();
        }
      }
      return kept.has(`${key}.v8`);
    },
    read(key) {
      used.add(key);
      const made = madeEntries.has(key);
      const entry = checked(readEntry(made ? staging.pathOf(`${key}.v8`) : join(dir, `${key}.v8`)));
      if (entry === undefined) debug("load", () => `input cache entry ${key} is damaged: not used`);
      return entry;
    },
    write(key, serialized) {
      used.add(key);
      if (staging.write(`${key}.v8`, withCheck(serialized))) madeEntries.add(key);
      else debug("load", () => `input cache entry ${key} not kept (it could not be staged)`);
    },
    commit() {
      const made = madeEntries.size;
      try {
        if (made > 0) mkdirSync(dir, { recursive: true });
        for (const key of madeEntries) {
          renameSync(staging.pathOf(`${key}.v8`), join(dir, `${key}.v8`));
        }
      } catch (error) {
        debug("load", () => `input cache not written (${(error as Error).message})`);
      }
      madeEntries.clear();
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        return;
      }
      let removed = 0;
      for (const name of names) {
        if (ENTRY.test(name) && used.has(name.slice(0, -3))) continue;
        try {
          rmSync(join(dir, name), { force: true });
          removed++;
        } catch {
          // Left for the next build's prune: a cache entry never fails a build.
        }
      }
      debug(
        "load",
        () => `input cache: ${used.size} entries kept (${made} new), ${removed} removed`,
      );
    },
  };
}
