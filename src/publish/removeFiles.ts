import { rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { PublishError } from "./publishError.js";

/**
 * Deletes files (site paths) from out/, then every folder they leave empty, up to out/ itself.
 * A folder that still holds anything, such as a foreign file, stays. Returns how many of the
 * files were there to delete.
 */
export function removeFiles(outDir: string, paths: Iterable<string>): number {
  const folders = new Set<string>();
  let removed = 0;
  for (const path of paths) {
    const target = join(outDir, path);
    try {
      unlinkSync(target);
      removed++;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
        throw new PublishError(target, "remove", error);
      }
    }
    folders.add(dirname(path));
  }
  // Deepest first, so a service folder is empty by the time its parent is tried.
  const byDepth = [...folders].sort((a, b) => b.split("/").length - a.split("/").length);
  for (const folder of byDepth) removeEmptyFolders(outDir, folder);
  return removed;
}

function removeEmptyFolders(outDir: string, folder: string): void {
  for (let current = folder; current !== "."; current = dirname(current)) {
    try {
      rmdirSync(join(outDir, current));
    } catch {
      // Not empty (or already gone): nothing above it can be empty either.
      return;
    }
  }
}
