import { createHash } from "node:crypto";
import { closeSync, type Dirent, fstatSync, openSync, readdirSync, readlinkSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { KnownDigests } from "./load/knownDigests.js";
import { ReusedBuffer } from "./load/reusedBuffer.js";

/** The code that renders (this package's src/ or dist/) and the templates it fills in. */
const CODE_DIRS = [
  fileURLToPath(new URL(".", import.meta.url)),
  fileURLToPath(new URL("../templates/", import.meta.url)),
];

export interface FingerprintInputs {
  dataDir: string;
  /** Digests of data files known by their state (load/knownDigests.ts). */
  known?: KnownDigests | undefined;
  /** SHA-256 digests of the API keys the edge rules will accept. */
  keyDigests: string[];
}

/**
 * A SHA-256 over everything a build's output depends on apart from the date: the program itself,
 * every file in the data folder, and the key digests. Two builds with the same fingerprint on the
 * same local day write the same files (creationTime aside), so the second need not run at all.
 * Hashing is a few milliseconds for megabytes of YAML; laying the schedules out is seconds.
 */
export function fingerprintBuild({ dataDir, keyDigests, known }: FingerprintInputs): string {
  const hash = createHash("sha256");
  hash.update(`program ${fingerprintProgram()}\0`);
  hash.update(`data folder ${dataDir}\0`);
  hashFolder(hash, dataDir, "data", known);
  hash.update(`keys ${[...keyDigests].sort().join(",")}\0`);
  return hash.digest("hex");
}

let programFingerprint: string | undefined;

/**
 * A SHA-256 over the code that renders and the templates it fills in: part of every document's
 * inputs (render/documentInputs.ts), so a new version of the program renders everything again.
 * Hashed once per process: the code does not change while it runs.
 */
export function fingerprintProgram(): string {
  if (programFingerprint === undefined) {
    const hash = createHash("sha256");
    for (const dir of CODE_DIRS) hashFolder(hash, dir, "code");
    programFingerprint = hash.digest("hex");
  }
  return programFingerprint;
}

/**
 * A file that cannot be read, or a folder that cannot be listed, is hashed as such: the build
 * goes on to load the data, which says why (so `build` and `validate` report the same problem).
 * A link is hashed by where it points (the loader follows it within the data folder only).
 */
function hashFolder(
  hash: ReturnType<typeof createHash>,
  dir: string,
  label: string,
  known?: KnownDigests,
): void {
  for (const { path, kind, code } of entriesUnder(dir)) {
    const name = `${label} ${relative(dir, path).split(sep).join("/")}`;
    if (code !== undefined) {
      hash.update(`${name} unreadable ${code}\0`);
      continue;
    }
    try {
      const digest =
        kind === "link"
          ? createHash("sha256").update(readlinkSync(path)).digest("hex")
          : fileDigest(path, known);
      hash.update(`${name} ${kind} ${digest}\0`);
    } catch (error) {
      hash.update(`${name} unreadable ${(error as NodeJS.ErrnoException).code}\0`);
    }
  }
}

const hashed = new ReusedBuffer();

/** A file's SHA-256, from `known` when the file is as it was when noted. */
function fileDigest(path: string, known: KnownDigests | undefined): string {
  const fd = openSync(path, "r");
  try {
    const stats = fstatSync(fd, { bigint: true });
    const noted = known?.find(stats);
    if (noted !== undefined) return noted;
    const bytes = hashed.read(fd, Number(stats.size));
    const digest = createHash("sha256").update(bytes).digest("hex");
    known?.note(stats, digest);
    return digest;
  } finally {
    closeSync(fd);
  }
}

interface FolderEntry {
  path: string;
  kind: "file" | "link" | "folder";
  /** Why a folder could not be listed. */
  code?: string | undefined;
}

function entriesUnder(dir: string): FolderEntry[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    return [{ path: dir, kind: "folder", code: (error as NodeJS.ErrnoException).code ?? "?" }];
  }
  const found: FolderEntry[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...entriesUnder(path));
    else if (entry.isFile()) found.push({ path, kind: "file" });
    else if (entry.isSymbolicLink()) found.push({ path, kind: "link" });
  }
  return found;
}
