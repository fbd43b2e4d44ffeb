import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SiteDocument } from "../render/renderSite.js";
import { acquireBuildLock, BuildLockBusyError, type BuildLockOptions } from "./buildLock.js";
import { commitManifest, isSitePath, journalPaths, readOwnedPaths } from "./ownershipManifest.js";
import { PublishError } from "./publishError.js";
import { removeFiles } from "./removeFiles.js";
import { sameDocument } from "./sameDocument.js";
import { scanOutputFolder } from "./scanOutputFolder.js";
import { JOURNAL_PATH, LOCK_PATH, MANIFEST_PATH } from "./siteLayout.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

export interface PublishProgress {
  rendered: number;
  written: number;
  unchanged: number;
}

export interface PublishSummary extends PublishProgress {
  /** Files of earlier builds that this build no longer produces (days out of the window, removed services). */
  removed: number;
  /** Files in out/ that no build wrote: left alone, listed so that someone can look at them. */
  foreign: string[];
}

export interface PublishOptions {
  lock?: BuildLockOptions;
  /** Called after every batch of documents, e.g. for a progress line on a terminal. */
  onProgress?: (progress: PublishProgress) => void;
}

/** Documents compared and written together; the file system works on several at once. */
const BATCH_SIZE = 16;

/**
 * The publish stage. Under a one-build-at-a-time lock: writes every document that differs from
 * the published one (apart from creationTime), each atomically; then deletes the files earlier
 * builds owned that this one no longer produces; then records what it owns. At every moment each
 * file under out/ is a complete document, and a failure leaves every file complete.
 */
export async function publishSite(
  outDir: string,
  documents: Iterable<SiteDocument> | AsyncIterable<SiteDocument>,
  { lock, onProgress }: PublishOptions = {},
): Promise<PublishSummary> {
  await attempt(outDir, "write", () => mkdir(outDir, { recursive: true }));
  const lockPath = join(outDir, LOCK_PATH);
  const release = await acquireBuildLock(lockPath, lock).catch((error: unknown) => {
    throw error instanceof BuildLockBusyError ? error : new PublishError(lockPath, "write", error);
  });
  try {
    const owned = await attempt(join(outDir, MANIFEST_PATH), "read", () => readOwnedPaths(outDir));
    const progress: PublishProgress = { rendered: 0, written: 0, unchanged: 0 };
    const published = new Set<string>();
    let batch: SiteDocument[] = [];
    for await (const document of documents) {
      if (!isSitePath(document.path) || published.has(document.path)) {
        throw new Error(`the build produced an invalid or repeated output path: ${document.path}`);
      }
      published.add(document.path);
      batch.push(document);
      if (batch.length === BATCH_SIZE) {
        await publishBatch(outDir, batch, owned, progress);
        onProgress?.(progress);
        batch = [];
      }
    }
    await publishBatch(outDir, batch, owned, progress);
    onProgress?.(progress);

    const removed = await removeFiles(
      outDir,
      [...owned].filter((path) => !published.has(path)),
    );
    const contents = await attempt(outDir, "read", () => scanOutputFolder(outDir));
    await removeFiles(outDir, contents.leftovers);
    const foreign = contents.files.filter((path) => !published.has(path));
    await attempt(join(outDir, MANIFEST_PATH), "write", () => commitManifest(outDir, published));
    return { ...progress, removed, foreign };
  } finally {
    await release();
  }
}

/** Compares a batch with what is published and writes the documents that changed. */
async function publishBatch(
  outDir: string,
  batch: SiteDocument[],
  owned: Set<string>,
  progress: PublishProgress,
): Promise<void> {
  const published = await Promise.all(
    // Unreadable counts as changed: the write then fails with the precise reason, or succeeds.
    batch.map((document) => readFile(join(outDir, document.path), "utf8").catch(() => undefined)),
  );
  const changed = batch.filter((document, i) => {
    const current = published[i];
    return current === undefined || !sameDocument(document.path, current, document.content);
  });
  progress.rendered += batch.length;
  progress.unchanged += batch.length - changed.length;

  const created = changed.map((d) => d.path).filter((path) => !owned.has(path));
  await attempt(join(outDir, JOURNAL_PATH), "write", () => journalPaths(outDir, created));
  for (const path of created) owned.add(path);

  // allSettled, not all: no write may still be running once a failure is reported.
  const results = await Promise.allSettled(
    changed.map((document) =>
      attempt(join(outDir, document.path), "write", () =>
        writeFileAtomically(join(outDir, document.path), document.content),
      ),
    ),
  );
  const failure = results.find((result) => result.status === "rejected");
  if (failure) throw failure.reason;
  progress.written += changed.length;
}

/** Runs a file-system step; a failure becomes a PublishError naming `path`. */
async function attempt<T>(
  path: string,
  action: PublishError["action"],
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof PublishError ? error : new PublishError(path, action, error);
  }
}
