import { createHash } from "node:crypto";
import {
  closeSync,
  type Dirent,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { KnownDigests } from "../load/files/knownDigests.js";
import { ReusedBuffer } from "../load/files/reusedBuffer.js";

/** The code that renders (this package's src/ or dist/) and the templates it fills in. */
const CODE_DIRS = [
  fileURLToPath(new URL(".", import.meta.url)),
  fileURLToPath(new URL("../../templates/", import.meta.url)),
];

export interface FingerprintInputs {
  dataDir: string;
  /** Digests of data files known by their state (load/files/knownDigests.ts). */
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

/** This package's root, where its package.json is (from src/ in development, dist/ installed). */
const PACKAGE_ROOT = fileURLToPath(new URL("../", import.meta.url));

let codeDigest: string | undefined;
let dependencies: string | undefined;

/**
 * A SHA-256 over what renders: this package's code and templates, the runtime (Node, V8, ICU,
 * Unicode and time-zone data versions: a tzdata update moves UTC times, an ICU update can change
 * text handling) and the resolved version of each runtime dependency (`npm update`, a floating
 * `node-version` in CI). Part of every document's inputs (render/documentInputs.ts) and of the
 * input cache's keys, so a new program or runtime renders everything again. The code and the
 * dependencies are read once per process: they do not change while it runs.
 */
export function fingerprintProgram(): string {
  codeDigest ??= hashCode();
  dependencies ??= describeDependencies(PACKAGE_ROOT);
  return createHash("sha256")
    .update(`code ${codeDigest}\0${describeRuntime()}\0${dependencies}`)
    .digest("hex");
}

function hashCode(): string {
  const hash = createHash("sha256");
  for (const dir of CODE_DIRS) hashFolder(hash, dir, "code");
  return hash.digest("hex");
}

/** The versions of what runs the code: read at each call (a test may stand in another). */
export function describeRuntime(): string {
  const { node, v8, icu, tz, unicode, cldr } = process.versions;
  return `node ${node} v8 ${v8} icu ${icu} tz ${tz} unicode ${unicode} cldr ${cldr}`;
}

/**
 * Each runtime dependency of the package at `root` with the version Node resolves for it from
 * there: the package.json found the way `import` finds the package (node_modules folders upwards,
 * so also when installed into a broadcaster's project, hoisted or not). Read from the folder, not
 * through the package's exports, which need not export its package.json.
 */
export function describeDependencies(root: string): string {
  let declared: string[];
  try {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
    };
    declared = Object.keys(manifest.dependencies ?? {}).sort();
  } catch {
    return "dependencies unknown";
  }
  const resolvePaths = createRequire(join(root, "package.json")).resolve.paths;
  return declared
    .map((name) => {
      for (const dir of resolvePaths(name) ?? []) {
        try {
          const found = JSON.parse(readFileSync(join(dir, name, "package.json"), "utf8")) as {
            version?: unknown;
          };
          return `${name}@${String(found.version)}`;
        } catch {
          // Not in this node_modules folder: the next one up.
        }
      }
      return `${name}@missing`;
    })
    .join(" ");
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
