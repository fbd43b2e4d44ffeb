import { randomBytes } from "node:crypto";
import { link, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { SpiStaticError } from "../exit/spiStaticError.js";

/** Who holds the lock; written whole before the lock file appears, so it is never half-read. */
export interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
}

export interface BuildLockOptions {
  /** How long to wait for another build to finish before giving up; 0 gives up at once. */
  waitMs?: number;
  /** A lock older than this is stale even when its pid seems alive (the pid may have been reused). */
  staleMs?: number;
  pollMs?: number;
}

/** Another build holds the lock on the same output folder (cron overlap). */
export class BuildLockBusyError extends SpiStaticError {
  readonly kind = "busy";

  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      `another build (pid ${holder.pid} on ${holder.host}, started ${holder.startedAt}) is writing ` +
        `this output folder; lock ${lockPath}. Nothing was written. Try again when it has finished, ` +
        "or pass --wait <seconds>.",
    );
    this.name = "BuildLockBusyError";
  }

  override toJsonReport(): Record<string, unknown> {
    return { error: this.message, path: this.lockPath };
  }
}

/** Tokens of the locks this process holds: our own pid in a lock is not always a reused one. */
const heldTokens = new Set<string>();

const DEFAULT_STALE_MS = 6 * 60 * 60 * 1000;
/** Breaking a stale lock takes milliseconds; a breaker older than this was killed while doing so. */
const BREAKER_STALE_MS = 10_000;

/**
 * Takes the one-build-at-a-time lock at `lockPath`, waiting up to `waitMs` for a live holder.
 * A lock whose process is gone (same host, pid not running) or that is older than `staleMs` is
 * broken at once, so a build killed with SIGKILL does not block the next night's build.
 * Returns the function that releases the lock.
 */
export async function acquireBuildLock(
  lockPath: string,
  { waitMs = 0, staleMs = DEFAULT_STALE_MS, pollMs = 250 }: BuildLockOptions = {},
): Promise<() => Promise<void>> {
  await mkdir(dirname(lockPath), { recursive: true });
  const me: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    token: randomBytes(8).toString("hex"),
  };
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await createExclusively(lockPath, `${JSON.stringify(me)}\n`)) {
      heldTokens.add(me.token);
      await removeLockTemporaries(lockPath);
      return () => releaseBuildLock(lockPath, me.token);
    }
    const holder = await readHolder(lockPath);
    if (holder === "gone") continue;
    if (holder === "unreadable" || isStale(holder, staleMs)) {
      await breakStaleLock(lockPath, holder === "unreadable" ? undefined : holder.token);
      continue;
    }
    if (Date.now() >= deadline) throw new BuildLockBusyError(lockPath, holder);
    await sleep(pollMs);
  }
}

async function releaseBuildLock(lockPath: string, token: string): Promise<void> {
  heldTokens.delete(token);
  const holder = await readHolder(lockPath);
  // Only remove our own lock: a build that judged us stale may have taken it over meanwhile.
  if (typeof holder === "object" && holder.token === token) await rm(lockPath, { force: true });
}

/**
 * What a build killed while taking or breaking the lock leaves behind: its temporaries
 * (createExclusively) and the breaker file. The holder removes them: nobody else may be linking
 * a temporary of its own then, and one removed from under a waiting build only makes it wait.
 */
async function removeLockTemporaries(lockPath: string): Promise<void> {
  const prefix = `${basename(lockPath)}.`;
  const names = await readdir(dirname(lockPath));
  const left = names.filter(
    (name) => name.startsWith(prefix) && (name.endsWith(".new") || name === `${prefix}break`),
  );
  await Promise.all(left.map((name) => rm(join(dirname(lockPath), name), { force: true })));
}

/** Writes a temporary file and hard-links it to `path`: the link appears whole, or fails if taken. */
async function createExclusively(path: string, content: string): Promise<boolean> {
  const temporary = `${path}.${randomBytes(6).toString("hex")}.new`;
  await writeFile(temporary, content);
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    // ENOENT: the lock's holder removed the temporary (removeLockTemporaries): the lock is taken.
    const { code } = error as NodeJS.ErrnoException;
    if (code === "EEXIST" || code === "ENOENT") return false;
    throw error;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function readHolder(lockPath: string): Promise<LockHolder | "gone" | "unreadable"> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (
      typeof holder.pid === "number" &&
      typeof holder.host === "string" &&
      typeof holder.startedAt === "string" &&
      typeof holder.token === "string"
    ) {
      return holder as LockHolder;
    }
  } catch {
    // Not JSON: not a lock this program wrote whole, so nobody can be relying on it.
  }
  return "unreadable";
}

function isStale(holder: LockHolder, staleMs: number): boolean {
  const age = Date.now() - Date.parse(holder.startedAt);
  if (!(age < staleMs)) return true;
  if (holder.host !== hostname()) return false;
  // A lock naming our pid that we do not hold is a dead build's (its pid reused, e.g. in a container).
  if (holder.pid === process.pid) return !heldTokens.has(holder.token);
  return !isProcessAlive(holder.pid);
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes a stale lock, unless another build got there first. Breaking is itself serialised by
 * a short-lived breaker file, so two builds cannot both remove the lock and both take it.
 */
async function breakStaleLock(lockPath: string, staleToken: string | undefined): Promise<void> {
  const breaker = `${lockPath}.break`;
  if (!(await createExclusively(breaker, `${process.pid}\n`))) {
    const age = await stat(breaker).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > BREAKER_STALE_MS) await rm(breaker, { force: true });
    else await sleep(20);
    return;
  }
  try {
    const holder = await readHolder(lockPath);
    const stillTheStaleOne =
      holder === "unreadable"
        ? staleToken === undefined
        : holder !== "gone" && holder.token === staleToken;
    if (stillTheStaleOne) await rm(lockPath, { force: true });
  } finally {
    await rm(breaker, { force: true });
  }
}
