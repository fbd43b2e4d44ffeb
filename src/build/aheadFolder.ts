import { readFileSync } from "node:fs";
import type { AheadDocuments } from "./renderAhead.js";
import { openStagingFolder } from "./stagingFolder.js";

export interface AheadFolder extends AheadDocuments {
  /**
   * Once the build is done: removes what is left; `andParents` after a build that did not
   * publish, with the folders the staging folder's creation made (stagingFolder.ts).
   */
  drop(andParents?: boolean): void;
}

/**
 * The documents a build renders ahead (renderAhead.ts), each in a file of its staging
 * folder from when it is rendered until the publish stage takes it: read back from the page
 * cache, not held in memory the while.
 */
export function openAheadFolder(outDir: string): AheadFolder {
  const staging = openStagingFolder(outDir, "ahead");
  return {
    put: (name, bytes) => staging.write(name, bytes),
    take(name) {
      try {
        return readFileSync(staging.pathOf(name));
      } catch {
        return undefined;
      }
    },
    drop: (andParents) => staging.drop(andParents),
  };
}
