import { createHash } from "node:crypto";
import {
  type BigIntStats,
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
} from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, join, sep } from "node:path";
import { decodeUtf8 } from "../text/decodeUtf8.js";
import type { KnownDigests } from "./knownDigests.js";
import { ReusedBuffer } from "./reusedBuffer.js";

/**
 * The largest data file read, in bytes. A real station's schedule (hundreds of shows, a year of
 * dated entries) is well under 1 MB. Locating a problem needs the file's `yaml` Document, about
 * 200 MB of memory per MB of YAML: a 2 MB file with a warning on every line takes some 400 MB
 * and seconds; anything larger is refused before it is read.
 */
export const MAX_DATA_FILE_BYTES = 2 * 1024 * 1024;

/** Why a data file gives no text: where, and the reason worded for a message at the file. */
export interface UnreadableFile {
  /** The file does not exist (a link to nothing included): the caller words that itself. */
  missing: boolean;
  line: number;
  column: number;
  message: string;
}

export type DataFileText = { text: string } | { unreadable: UnreadableFile };
export type DataFileBytes = { bytes: Buffer } | { unreadable: UnreadableFile };

/** The names in a folder, sorted, or why it cannot be listed. */
export type FolderListing = { names: readonly string[] } | { missing: true } | { reason: string };

/**
 * Reading from a data folder, which may come from anyone's repository: a file is read only when
 * it is a regular file whose real path lies inside the folder (a link is followed only to
 * another file of the folder), never larger than MAX_DATA_FILE_BYTES, and only as UTF-8. So a
 * link to `/proc/self/environ` or `/etc/passwd`, a FIFO or a device is refused by name, never
 * read, and no message can quote what it holds.
 */
export interface DataFolder {
  readText(path: string): Promise<DataFileText>;
  /**
   * The file's bytes, checked as readText checks them apart from being UTF-8 (see textOf). With
   * `reuse`, a view of one buffer that the next read with `reuse` overwrites (for bytes that are
   * hashed at once, see ReusedBuffer).
   */
  readBytes(path: string, reuse?: boolean): DataFileBytes;
  /**
   * The SHA-256 (hex) of the file's bytes, checked as readBytes checks them: from `known` when
   * the file is in the state its digest was noted in, else read (into the reused buffer: `bytes`,
   * valid until the next such read) and hashed, and noted.
   */
  digest(path: string, known: KnownDigests | undefined): DataFileDigest;
  list(dir: string): Promise<FolderListing>;
}

export type DataFileDigest =
  | { digest: string; size: number; bytes?: Buffer }
  | { unreadable: UnreadableFile };

export async function openDataFolder(dir: string): Promise<DataFolder> {
  // A folder that does not exist has no files: every read then says which one is missing.
  const root = await realpath(dir).catch(() => dir);
  const confined: Confinement = {
    inside: (path) => path === root || path.startsWith(root + sep),
    realFolders: new Map(),
  };
  const reused = new ReusedBuffer();

  function readBytes(path: string, reuse = false): DataFileBytes {
    return openChecked(confined, path, (fd, stats) => ({
      bytes: reuse ? reused.read(fd, Number(stats.size)) : readFileSync(fd),
    }));
  }

  function digest(path: string, known: KnownDigests | undefined): DataFileDigest {
    return openChecked(confined, path, (fd, stats) => {
      const size = Number(stats.size);
      const noted = known?.find(stats);
      if (noted !== undefined) return { digest: noted, size };
      const bytes = reused.read(fd, size);
      const found = createHash("sha256").update(bytes).digest("hex");
      known?.note(stats, found);
      return { digest: found, size, bytes };
    });
  }

  /**
   * Each folder listed once per build: the load lists every episode folder ahead (to read its
   * files ahead), then again as it loads each service. Sync, as the reads: small folders.
   */
  const listings = new Map<string, FolderListing>();

  async function list(dir: string): Promise<FolderListing> {
    let listing = listings.get(dir);
    if (listing === undefined) {
      listing = listNow(confined, dir);
      listings.set(dir, listing);
    }
    return listing;
  }

  async function readText(path: string): Promise<DataFileText> {
    const read = readBytes(path);
    return "bytes" in read ? textOf(read.bytes) : read;
  }

  return { readText, readBytes, digest, list };
}

/**
 * The data folder's bounds, and each folder's real path, found once: a build reads hundreds of
 * files from a few folders.
 */
interface Confinement {
  inside(realPath: string): boolean;
  readonly realFolders: Map<string, string>;
}

// Synchronous: for hundreds of small files, blocking calls are several times faster than
// promises on the thread pool, and nothing else runs while the data folder is read.
function openChecked<T>(
  confined: Confinement,
  path: string,
  use: (fd: number, stats: BigIntStats) => T,
): T | { unreadable: UnreadableFile } {
  const opened = openInside(confined, path);
  if ("unreadable" in opened) return opened;
  const { fd } = opened;
  try {
    const stats = fstatSync(fd, { bigint: true });
    if (stats.isDirectory()) return refused("is a folder, not a file");
    if (!stats.isFile()) return refused(`is ${specialKind(stats)}, not a regular file`);
    if (stats.size > MAX_DATA_FILE_BYTES) {
      return refused(
        `is ${megabytes(Number(stats.size))}; a data file may hold at most ${megabytes(MAX_DATA_FILE_BYTES)}`,
      );
    }
    return use(fd, stats);
  } catch (error) {
    return refused(...reasonOf(error));
  } finally {
    closeSync(fd);
  }
}

/**
 * The file opened at its real path, when that lies inside the folder. Its folder's real path
 * (resolved once) with its name is its real path unless it is itself a link, which opening
 * without following links tells (ELOOP): only then is its own real path resolved.
 */
function openInside(
  { inside, realFolders }: Confinement,
  path: string,
): { fd: number } | { unreadable: UnreadableFile } {
  let named: string;
  try {
    const folder = dirname(path);
    let realFolder = realFolders.get(folder);
    if (realFolder === undefined) {
      realFolder = realpathSync(folder);
      realFolders.set(folder, realFolder);
    }
    named = join(realFolder, basename(path));
  } catch (error) {
    return refused(...reasonOf(error));
  }
  if (inside(named)) {
    try {
      return { fd: openSync(named, OPEN_FLAGS) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOOP") return refused(...reasonOf(error));
    }
  }
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    return refused(...reasonOf(error));
  }
  if (!inside(real)) {
    return refused(
      "is a link to a file outside the data folder; links are followed only within it",
    );
  }
  try {
    return { fd: openSync(real, OPEN_FLAGS) };
  } catch (error) {
    return refused(...reasonOf(error));
  }
}

function listNow({ inside }: Confinement, dir: string): FolderListing {
  try {
    const real = realpathSync(dir);
    if (!inside(real)) {
      return {
        reason: "is a link to a folder outside the data folder; links are followed only within it",
      };
    }
    return { names: readdirSync(real).sort() };
  } catch (error) {
    const [message, missing] = reasonOf(error);
    return missing ? { missing } : { reason: message };
  }
}

/** Non-blocking, so a FIFO is opened (and then refused) instead of waiting for a writer. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function refused(message: string, missing = false): { unreadable: UnreadableFile } {
  return { unreadable: { missing, line: 1, column: 1, message } };
}

/** A data file's bytes as text, or where they are not UTF-8 (as an unreadable file). */
export function textOf(bytes: Uint8Array): DataFileText {
  const decoded = decodeUtf8(bytes);
  if ("text" in decoded) return decoded;
  return { unreadable: { missing: false, ...decoded.invalid } };
}

/** The system's reason for a failed read, worded for a message; true when the file is missing. */
function reasonOf(error: unknown): [message: string, missing: boolean] {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case "ENOENT":
      return ["is missing", true];
    case "EACCES":
    case "EPERM":
      return [`cannot be read: permission denied (${code})`, false];
    case "EISDIR":
      return ["is a folder, not a file", false];
    case "ENOTDIR":
      return ["is not in a folder (a file stands where a folder of its path should be)", false];
    case "ELOOP":
      return ["is a link that leads round in a loop", false];
    default:
      return [`cannot be read (${code ?? String(error)})`, false];
  }
}

function specialKind(stats: BigIntStats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "a special file";
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
