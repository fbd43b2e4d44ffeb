import { createHash } from "node:crypto";
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readSync,
} from "node:fs";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import { notePhase } from "../debug/memoryPhases.js";
import { SpiStaticError } from "../exit/spiStaticError.js";
import { PublishError } from "../publish/publishError.js";
import { removeFiles } from "../publish/removeFiles.js";
import { writeFileAtomically } from "../publish/writeFileAtomically.js";
import type { SiteDocument } from "../site/siteContract.js";
import type { BuildSources } from "./buildFingerprint.js";
import { acquireBuildLock, BuildLockBusyError, type BuildLockOptions } from "./buildLock.js";
import { planPrune } from "./buildPlan.js";
import {
  type BuildStamp,
  readUpToDateSite,
  recordBuildStamp,
  type UpToDateSite,
} from "./buildStamp.js";
import {
  type BuildState,
  commitBuildState,
  journalBatch,
  STATE_JOURNAL_PATH,
  STATE_PATH,
} from "./buildState.js";
import { DocumentVersions, versionFloor } from "./documentVersions.js";
import { type SeenFile, seenNow } from "./fileState.js";
import { type InputsRecord, writeInputsRecord } from "./inputsRecord.js";
import { isSitePath } from "./ownershipManifest.js";
import { refuseUnsafeEntries, scanOutputFolder, scanStateFolder } from "./scanOutputFolder.js";
import { LOCK_PATH } from "./stateFolder.js";

export interface PublishProgress {
  /** Documents rendered (and compared with the published file). */
  rendered: number;
  written: number;
  /** Documents left as they were: rendered the same apart from their stamp, or reused. */
  unchanged: number;
  /** Documents not rendered at all: their inputs and file were as the last build recorded. */
  reused: number;
}

export interface PublishSummary extends PublishProgress {
  /** Files of earlier builds that this build no longer produces (days out of the window, removed services). */
  removed: number;
  /** Files in out/ that no build wrote: left alone, listed so that someone can look at them. */
  foreign: string[];
}

/** What publishSite needs from the build that holds the lock (buildSite.ts). */
export interface PublishOptions {
  /** The state as the build read it under the lock (buildState.ts), with its checks and digests. */
  state: BuildState;
  /** Recorded when the build completes, so that a rebuild from the same inputs can be skipped. */
  stamp?: BuildStamp<unknown>;
  /** Called after every batch of documents, e.g. for a progress line on a terminal. */
  onProgress?: (progress: PublishProgress) => void;
  /** Owned files this build does not produce but keeps as they are (`--keep-going`'s broken services). */
  keep?: string[];
  /**
   * The build's clock (UTC ms): a changed document's version is at least its versionFloor
   * (documentVersions.ts). Without it, versions only grow by one from the state.
   */
  now?: number;
}

/**
 * A document rendered (with what it was made from, recorded for the next build's plan), or one
 * the plan reused: not rendered, its file left as it is and recorded as `reused`.
 */
export type PublishableDocument =
  | (SiteDocument & { inputs?: string })
  | { path: string; inputs: string; reused: SeenFile };

/** Documents taken together, so the journals get one append per batch, not per file. */
const BATCH_SIZE = 64;
/**
 * Rendered documents held at most before they are compared and written: a batch of a
 * 100-service build's PI documents held 30-35 MB.
 */
const HELD_BYTES = 8_000_000;

/**
 * The publish stage. Under a one-build-at-a-time lock: gives each SI and PI document its version
 * (documentVersions.ts), writes every document that differs from the published one (apart from
 * creationTime and version), each atomically; then deletes the files earlier
 * builds owned that this one no longer produces; then records what it owns. At every moment each
 * file under out/ is a complete document, and a failure leaves every file complete.
 */
export async function publishSite(
  outDir: string,
  documents: Iterable<PublishableDocument> | AsyncIterable<PublishableDocument>,
  { state, stamp, onProgress, keep = [], now }: PublishOptions,
): Promise<PublishSummary> {
  const contents = attempt(outDir, "read", () => scanOutputFolder(outDir));
  refuseUnsafeEntries(outDir, contents);
  const { owned } = state;
  const versions = DocumentVersions.of(state, now === undefined ? 0 : versionFloor(now));
  const batches: Batches = { outDir, state, versions, record: new Map() };
  const progress: PublishProgress = { rendered: 0, written: 0, unchanged: 0, reused: 0 };
  const published = new Set<string>();
  // Documents are compared and written in batches: once BATCH_SIZE were looked at, or
  // HELD_BYTES of rendered ones are held, whichever comes first.
  let batch: (SiteDocument & { inputs?: string })[] = [];
  let seen = 0;
  let heldBytes = 0;
  for await (const document of documents) {
    if (!isSitePath(document.path) || published.has(document.path)) {
      throw new Error(`the build produced an invalid or repeated output path: ${document.path}`);
    }
    published.add(document.path);
    if ("reused" in document) {
      batches.record.set(document.path, { inputs: document.inputs, file: document.reused });
      progress.reused++;
      progress.unchanged++;
    } else {
      batch.push(document);
      heldBytes += document.content.length;
    }
    if (++seen % BATCH_SIZE === 0 || heldBytes >= HELD_BYTES) {
      publishBatch(batches, batch, progress);
      onProgress?.(progress);
      batch = [];
      heldBytes = 0;
    }
  }
  publishBatch(batches, batch, progress);
  onProgress?.(progress);
  notePhase("documents written");

  for (const path of keep) if (owned.has(path)) published.add(path);
  const stale = planPrune(owned, published, keep);
  // Listed before pruning: the owned files it held that this build dropped are gone after.
  const foreign = contents.files.filter((path) => !published.has(path) && !owned.has(path));
  // The state is written before anything is pruned, the stale files still owned and no stamp:
  // a build whose state cannot be written prunes nothing, and one killed while pruning still
  // owns what is left (a file's own version is the floor of its next, so the dropped version
  // records lose nothing). With nothing to prune, the first write is the last.
  const { record } = batches;
  writeInputsRecord(state, record);
  const recordedVersions = versions.recordsOf(published);
  const commit = (owning: Iterable<string>) =>
    attempt(join(outDir, STATE_PATH), "write", () =>
      commitBuildState(state, { owned: owning, versions: recordedVersions }),
    );
  state.stamp = undefined;
  if (stale.length > 0) commit([...published, ...stale]);
  const removed = removeFiles(outDir, stale);
  removeFiles(outDir, contents.leftovers);
  debug(
    "publish",
    () =>
      `${progress.reused} documents reused (inputs and file as recorded), ` +
      `${progress.rendered} rendered: ${progress.written} written, ` +
      `${progress.rendered - progress.written} the same as published`,
  );
  if (stamp) {
    const known = new Map([...record].map(([path, { file }]) => [path, file]));
    recordBuildStamp(state, stamp, published, known);
  }
  commit(published);
  notePhase("publish done (state written)");
  return { ...progress, removed, foreign };
}

/**
 * The published site, when the last build made it from the same inputs on the same local day
 * and nothing has touched its files since: then a build has nothing to do. Checked under the
 * build lock, on the state buildSite read under it.
 */
export function findUpToDateSite<Report>(
  outDir: string,
  sources: BuildSources,
  now: number,
  state: BuildState,
): (UpToDateSite<Report> & { foreign: string[] }) | undefined {
  const rebuild = (reason: string) => debug("stamp", () => `building ${outDir}: ${reason}`);
  const site = readUpToDateSite<Report>(state, sources, now, rebuild);
  if (!site) return undefined;
  debug(
    "stamp",
    () => `${outDir} is up to date: ${site.files.length} files as the last build left them`,
  );
  try {
    site.refresh?.();
  } catch (error) {
    debug("stamp", () => `${STATE_PATH} not refreshed (${(error as Error).message})`);
  }
  const published = new Set(site.files);
  const contents = attempt(outDir, "read", () => scanOutputFolder(outDir));
  return { ...site, foreign: contents.files.filter((path) => !published.has(path)) };
}

/**
 * Before anything in the bookkeeping folder is read or the lock is taken inside it: a link there
 * would take the lock (and the state) outside out/, a FIFO would hang the build.
 */
function refuseUnsafeStateFolder(outDir: string): void {
  refuseUnsafeEntries(
    outDir,
    attempt(outDir, "read", () => scanStateFolder(outDir)),
  );
}

/**
 * Takes the one-build-at-a-time lock on out/ (after checking the bookkeeping folder holds no
 * link or FIFO); returns the function that releases it.
 */
export async function holdOutputFolder(
  outDir: string,
  lock: BuildLockOptions | undefined,
): Promise<() => Promise<void>> {
  refuseUnsafeStateFolder(outDir);
  const lockPath = join(outDir, LOCK_PATH);
  return acquireBuildLock(lockPath, lock).catch((error: unknown) => {
    throw error instanceof BuildLockBusyError ? error : new PublishError(lockPath, "write", error);
  });
}

/** What every batch of one build shares. */
interface Batches {
  outDir: string;
  state: BuildState;
  versions: DocumentVersions;
  /** The inputs record this build makes. */
  record: InputsRecord;
}

/** A document whose bytes (version decided) differ from the published file's. */
interface ChangedDocument {
  path: string;
  content: Buffer;
  inputs: string | undefined;
}

/** Compares the rendered documents with the published files, in order, and writes those that differ. */
function publishBatch(
  batches: Batches,
  rendered: (SiteDocument & { inputs?: string })[],
  progress: PublishProgress,
): void {
  const changed: ChangedDocument[] = [];
  for (const { path, content, inputs } of rendered) {
    const different = compareWithPublished(batches, path, content, inputs, progress);
    if (different) changed.push(different);
  }
  writeBatch(batches, changed, progress);
}

/** The rendered document, its version decided, when it differs from the published file. */
function compareWithPublished(
  { outDir, versions, record }: Batches,
  path: string,
  rendered: Buffer,
  inputs: string | undefined,
  progress: PublishProgress,
): ChangedDocument | undefined {
  progress.rendered++;
  const current = readPublished(join(outDir, path));
  const settled = versions.settle(path, rendered, current?.bytes);
  if (!settled.changed) {
    if (inputs !== undefined && current) {
      // Hashed only here: a document that changed is recorded by the bytes written instead.
      const digest = createHash("sha256").update(current.bytes).digest("hex");
      record.set(path, { inputs, file: seenNow(current.stats, digest) });
    }
    progress.unchanged++;
    return undefined;
  }
  return { path, content: settled.content, inputs };
}

/**
 * Writes the changed documents of a batch. The journal comes first: the paths it creates and
 * the versions it publishes are on disk before any file is.
 */
function writeBatch(
  { outDir, state, versions, record }: Batches,
  batch: ChangedDocument[],
  progress: PublishProgress,
): void {
  const paths = batch.map((document) => document.path);
  const created = paths.filter((path) => !state.owned.has(path));
  attempt(join(outDir, STATE_JOURNAL_PATH), "write", () =>
    journalBatch(state, created, versions.toJournal(paths)),
  );

  for (const { path, content, inputs } of batch) {
    const target = join(outDir, path);
    attempt(target, "write", () => writeFileAtomically(target, content));
    if (inputs !== undefined) {
      const digest = createHash("sha256").update(content).digest("hex");
      record.set(path, { inputs, file: writtenFile(target, digest) });
    }
    progress.written++;
  }
}

/** A file just written: its state, trusted only if it settles before the record is written. */
function writtenFile(path: string, digest: string): SeenFile {
  try {
    return seenNow(lstatSync(path, { bigint: true }), digest);
  } catch {
    return { state: "", digest };
  }
}

/**
 * The published bytes and the file's state. Opened without following a link or waiting on a
 * FIFO (one may appear after the scan): anything but a regular file stops the build. Otherwise
 * unreadable counts as changed: the write then fails with the precise reason, or succeeds.
 */
function readPublished(path: string): { bytes: Buffer; stats: BigIntStats } | undefined {
  let fd: number;
  try {
    fd = openSync(path, READ_FLAGS);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw notRegular(path);
    return undefined;
  }
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (!stats.isFile()) throw notRegular(path);
    const bytes = readOpenFile(fd, Number(stats.size));
    return { bytes, stats };
  } catch (error) {
    if (error instanceof PublishError) throw error;
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The file's bytes, its size known from fstat (readFileSync would ask for it again). */
function readOpenFile(fd: number, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let read = 0;
  while (read < size) {
    const count = readSync(fd, bytes, read, size - read, read);
    if (count === 0) break;
    read += count;
  }
  return read === size ? bytes : bytes.subarray(0, read);
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
    throw error instanceof SpiStaticError ? error : new PublishError(path, action, error);
  }
}
