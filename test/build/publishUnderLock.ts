import { mkdir } from "node:fs/promises";
import type { BuildLockOptions } from "../../src/build/buildLock.js";
import { readBuildState } from "../../src/build/buildState.js";
import {
  holdOutputFolder,
  type PublishableDocument,
  type PublishOptions,
  publishSite,
} from "../../src/build/publishSite.js";

/** publishSite as buildSite calls it: under the lock, on the state read under it. */
export async function publishUnderLock(
  outDir: string,
  documents: Iterable<PublishableDocument> | AsyncIterable<PublishableDocument>,
  {
    lock,
    notes,
    ...options
  }: Omit<PublishOptions, "state"> & { lock?: BuildLockOptions; notes?: string[] } = {},
) {
  await mkdir(outDir, { recursive: true });
  const release = await holdOutputFolder(outDir, lock);
  try {
    return await publishSite(outDir, documents, {
      ...options,
      state: readBuildState(outDir, notes),
    });
  } finally {
    await release();
  }
}
