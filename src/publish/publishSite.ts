import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import type { SiteDocument } from "../site/siteContract.js";
import { acquireBuildLock, BuildLockBusyError, type BuildLockOptions } from "./buildLock.js";
import {
  type BuildStamp,
  forgetBuildStamp,
  readUpToDateSite,
  recordBuildStamp,
  type UpToDateSite,
} from "./buildStamp.js";
import { DocumentVersions } from "./documentVersions.js";
import { commitManifest, isSitePath, journalPaths, readOwnedPaths } from "./ownershipManifest.js";
import { PublishError } from "./publishError.js";
import { removeFiles } from "./removeFiles.js";
import { refuseUnsafeEntries, scanOutputFolder, scanStateFolder } from "./scanOutputFolder.js";
import {
  JOURNAL_PATH,
  LOCK_PATH,
  MANIFEST_PATH,
  STAMP_PATH,
  VERSIONS_JOURNAL_PATH,
  VERSIONS_PATH,
} from "./stateFolder.js";
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
  /** Recorded when the build completes, so that a rebuild from the same inputs can be skipped. */
  stamp?: BuildStamp<unknown>;
  /** Called after every batch of documents, e.g. for a progress line on a terminal. */
  onProgress?: (progress: PublishProgress) => void;
  /** Owned files this build does not produce but keeps as they are (`--keep-going`'s broken services). */
  keep?: string[];
}

/** Documents compared together, so the journal gets one append per batch, not per file. */
const BATCH_SIZE = 64;

/**
 * The publish stage. Under a one-build-at-a-time lock: gives each SI and PI document its version
 * (documentVersions.ts), writes every document that differs from the published one (apart from
 * creationTime and version), each atomically; then deletes the files earlier
 * builds owned that this one no longer produces; then records what it owns. At every moment each
 * file under out/ is a complete document, and a failure leaves every file complete.
 */
export async function publishSite(
  outDir: string,
  documents: Iterable<SiteDocument> | AsyncIterable<SiteDocument>,
  { lock, stamp, onProgress, keep = [] }: PublishOptions = {},
): Promise<PublishSummary> {
  attempt(outDir, "write", () => mkdirSync(outDir, { recursive: true }));
  const release = await lockOutputFolder(outDir, lock);
  try {
    const contents = attempt(outDir, "read", () => scanOutputFolder(outDir));
    refuseUnsafeEntries(outDir, contents);
    const owned = attempt(join(outDir, MANIFEST_PATH), "read", () => readOwnedPaths(outDir));
    const versions = attempt(join(outDir, VERSIONS_PATH), "read", () =>
      DocumentVersions.read(outDir),
    );
    attempt(join(outDir, STAMP_PATH), "write", () => forgetBuildStamp(outDir));
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
        publishBatch(outDir, batch, owned, versions, progress);
        onProgress?.(progress);
        batch = [];
      }
    }
    publishBatch(outDir, batch, owned, versions, progress);
    onProgress?.(progress);

    for (const path of keep) if (owned.has(path)) published.add(path);
    const removed = removeFiles(
      outDir,
      [...owned].filter((path) => !published.has(path)),
    );
    removeFiles(outDir, contents.leftovers);
    // Listed before publishing: the owned files it held that this build dropped are gone now.
    const foreign = contents.files.filter((path) => !published.has(path) && !owned.has(path));
    attempt(join(outDir, VERSIONS_PATH), "write", () => versions.commit(published));
    attempt(join(outDir, MANIFEST_PATH), "write", () => commitManifest(outDir, published));
    if (stamp) {
      attempt(join(outDir, STAMP_PATH), "write", () => recordBuildStamp(outDir, stamp, published));
    }
    return { ...progress, removed, foreign };
  } finally {
    await release();
  }
}

/**
 * The published site, when the last build made it from the same inputs on the same local day
 * and nothing has touched its files since: then a build has nothing to do. A match is checked
 * again under the build lock, so a build still writing the folder is waited for (or reported
 * busy) as usual; a stamp that does not match never touches the lock.
 */
export async function findUpToDateSite<Report>(
  outDir: string,
  inputs: string,
  now: number,
  { lock }: PublishOptions = {},
): Promise<(UpToDateSite<Report> & { foreign: string[] }) | undefined> {
  refuseUnsafeStateFolder(outDir);
  const rebuild = (reason: string) => debug("stamp", () => `building ${outDir}: ${reason}`);
  if (!readUpToDateSite(outDir, inputs, now, rebuild)) return undefined;
  const release = await lockOutputFolder(outDir, lock);
  try {
    const site = readUpToDateSite<Report>(outDir, inputs, now, rebuild);
    if (!site) return undefined;
    debug(
      "stamp",
      () => `${outDir} is up to date: ${site.files.length} files as the last build left them`,
    );
    const published = new Set(site.files);
    const contents = attempt(outDir, "read", () => scanOutputFolder(outDir));
    return { ...site, foreign: contents.files.filter((path) => !published.has(path)) };
  } finally {
    await release();
  }
}

/**
 * Before anything in the bookkeeping folder is read or the lock is taken inside it: a link there
 * would take the lock (and the manifest) outside out/, a FIFO would hang the build.
 */
function refuseUnsafeStateFolder(outDir: string): void {
  refuseUnsafeEntries(
    outDir,
    attempt(outDir, "read", () => scanStateFolder(outDir)),
  );
}

async function lockOutputFolder(outDir: string, lock: BuildLockOptions | undefined) {
  refuseUnsafeStateFolder(outDir);
  const lockPath = join(outDir, LOCK_PATH);
  return acquireBuildLock(lockPath, lock).catch((error: unknown) => {
    throw error instanceof BuildLockBusyError ? error : new PublishError(lockPath, "write", error);
  });
}

/**
 * Compares a batch with what is published and writes the documents that changed. The journals
 * come first: the paths it creates and the versions it publishes are on disk before any file is.
 */
function publishBatch(
  outDir: string,
  batch: SiteDocument[],
  owned: Set<string>,
  versions: DocumentVersions,
  progress: PublishProgress,
): void {
  const changed = batch.flatMap((document) => {
    const current = readPublished(join(outDir, document.path));
    const settled = versions.settle(document.path, document.content, current);
    return settled.changed ? [{ path: document.path, content: settled.content }] : [];
  });
  progress.rendered += batch.length;
  progress.unchanged += batch.length - changed.length;

  const created = changed.map((d) => d.path).filter((path) => !owned.has(path));
  attempt(join(outDir, JOURNAL_PATH), "write", () => journalPaths(outDir, created));
  for (const path of created) owned.add(path);
  attempt(join(outDir, VERSIONS_JOURNAL_PATH), "write", () =>
    versions.journal(changed.map((d) => d.path)),
  );

  for (const document of changed) {
    const target = join(outDir, document.path);
    attempt(target, "write", () => writeFileAtomically(target, document.content));
    progress.written++;
  }
}

/**
 * The published bytes. Opened without following a link or waiting on a FIFO (one may appear
 * after the scan): anything but a regular file stops the build. Otherwise unreadable counts as
 * changed: the write then fails with the precise reason, or succeeds.
 */
function readPublished(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw notRegular(path);
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(path);
    return readFileSync(fd);
  } catch (error) {
    if (error instanceof PublishError) throw error;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function notRegular(path: string): PublishError {
  return new PublishError(
    path,
    "write",
    new Error(
      "it is not a regular file (a folder, a link or a special file); the build never writes through one",
    ),
  );
}

/** Runs a file-system step; a failure becomes a PublishError naming `path`. */
function attempt<T>(path: string, action: PublishError["action"], step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw error instanceof PublishError ? error : new PublishError(path, action, error);
  }
}
