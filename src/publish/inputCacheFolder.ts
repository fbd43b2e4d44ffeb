import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import type { InputCache } from "../load/inputCache.js";
import { ReusedBuffer } from "../load/reusedBuffer.js";
import { refuseUnsafeEntries, scanStateFolder } from "./scanOutputFolder.js";
import { STATE_DIR } from "./stateFolder.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

/** Where out/ keeps the input cache: a file per validated data file, named by its key. */
export const INPUT_CACHE_DIR = `${STATE_DIR}/inputs`;
const ENTRY = /^[0-9a-f]{64}\.v8$/;

export interface InputCacheFolder extends InputCache {
  /**
   * After a published build: writes the entries it made and deletes those it did not use, so the
   * folder holds one build's inputs, no more. A build that stops before publishing writes none.
   */
  commit(): void;
}

/**
 * The input cache (load/inputCache.ts) in out/_spi-static/inputs/, beside the build's other
 * bookkeeping, so it travels with the output folder from one night to the next. A key covers
 * the program, the kind of file and its bytes, so a new program version or any edit misses.
 * Reads and writes never fail the build: an entry that cannot be read is parsed again, one that
 * cannot be written is only missing next time. Entries are written atomically, so a build killed
 * mid-write leaves none half-written, and only by a build that published (`commit`), so a
 * refused build leaves out/ as it was; until then they are held in memory.
 */
export function openInputCacheFolder(outDir: string, program: string): InputCacheFolder {
  // Never through a link planted in the bookkeeping folder (the same check as the build lock's).
  refuseUnsafeEntries(outDir, scanStateFolder(outDir));
  const dir = join(outDir, INPUT_CACHE_DIR);
  const used = new Set<string>();
  const madeEntries = new Map<string, Uint8Array>();
  const entries = new ReusedBuffer();
  let kept: Set<string> | undefined;
  return {
    keyOf(fileDigest) {
      return createHash("sha256").update(`${program}\0${fileDigest}`).digest("hex");
    },
    has(key) {
      used.add(key);
      if (madeEntries.has(key)) return true;
      if (kept === undefined) {
        try {
          kept = new Set(readdirSync(dir).filter((name) => ENTRY.test(name)));
        } catch {
          kept = new Set();
        }
      }
      return kept.has(`${key}.v8`);
    },
    read(key) {
      used.add(key);
      const made = madeEntries.get(key);
      if (made) return made;
      let fd: number;
      try {
        fd = openSync(join(dir, `${key}.v8`), "r");
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
    },
    write(key, serialized) {
      used.add(key);
      madeEntries.set(key, serialized);
    },
    commit() {
      const made = madeEntries.size;
      for (const [key, serialized] of madeEntries) {
        try {
          writeFileAtomically(join(dir, `${key}.v8`), serialized);
        } catch (error) {
          debug("load", () => `input cache not written (${(error as Error).message})`);
          break;
        }
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
