import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  type Dirent,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { KnownDigests } from "../load/files/knownDigests.js";
import { ReusedBuffer } from "../load/files/reusedBuffer.js";

export interface FingerprintInputs {
  dataDir: string;
  /** Digests of data files known by their state (load/files/knownDigests.ts). */
  known?: KnownDigests | undefined;
  /** SHA-256 digests of the API keys the edge rules will accept. */
  keyDigests: string[];
}

/**
 * What a build's output depends on apart from the date, by name: the program's parts
 * (describeProgram), the data folder and each of its files' digests (or why it could not be
 * read), and the key digests. Kept with the stamp (buildStamp.ts), so that the next build can
 * say which of them changed (inputChanges.ts).
 */
export interface BuildSources {
  program: Record<string, string>;
  dataDir: string;
  /** Each file by its path in the data folder: its kind and digest, or why it was not read. */
  data: Record<string, string>;
  keys: string;
}

/**
 * The sources of a build now. Hashing is a few milliseconds for megabytes of YAML; laying the
 * schedules out is seconds. A data file that cannot be read, or a folder that cannot be listed,
 * is noted as such: the build goes on to load the data, which says why (so `build` and
 * `validate` report the same problem).
 */
export function readBuildSources({ dataDir, keyDigests, known }: FingerprintInputs): BuildSources {
  return {
    program: Object.fromEntries(describeProgram()),
    dataDir,
    data: Object.fromEntries(digestsUnder(dataDir, known).digests),
    keys: createHash("sha256")
      .update([...keyDigests].sort().join(","))
      .digest("hex"),
  };
}

/**
 * A SHA-256 over a build's sources. Two builds with the same fingerprint on the same local day
 * write the same files (creationTime aside), so the second need not run at all.
 */
export function fingerprintOf(sources: BuildSources): string {
  return createHash("sha256").update(JSON.stringify(sources)).digest("hex");
}

/**
 * What a part of the program is when it cannot be read: a value no earlier build stored, so
 * the build renders everything again (unknown means changed). Never a constant: a constant
 * matches itself the next night, and a new program would keep yesterday's documents.
 */
function unknownPart(why: string): string {
  return `unknown (${why}) ${randomUUID()}`;
}

/**
 * The program's parts by name: `code` (every file of the compiled tree this module is part of:
 * dist/ installed, src/ in development), `templates`, the package's own version, `runtime`, and
 * each runtime dependency, direct or not, by name with its resolved version. Read once per
 * process (they do not change while it runs), the runtime at each call (a test stands in
 * another). SPI_STATIC_DEBUG=plan names the parts that changed (programChanges).
 */
function describeProgram(): ReadonlyMap<string, string> {
  programParts ??= readProgramParts();
  return new Map([...programParts, ["runtime", describeRuntime()]]);
}

let programParts: Map<string, string> | undefined;

function readProgramParts(): Map<string, string> {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const root = findPackageRoot(here);
  if (root === undefined)
    return new Map([["package", unknownPart(`no package.json above ${here}`)]]);
  const manifest = readManifest(root);
  return new Map([
    ["code", digestOfFolder(dirname(here))],
    ["templates", digestOfFolder(join(root, "templates"))],
    ["package", typeof manifest === "string" ? manifest : `${manifest.name}@${manifest.version}`],
    ...describeDependencies(root),
  ]);
}

/**
 * A SHA-256 over what renders: the program's parts (describeProgram). Part of every document's
 * inputs (render/documentInputs.ts) and of the input cache's keys, so a new program, runtime or
 * dependency renders everything again.
 */
export function fingerprintProgram(): string {
  return createHash("sha256")
    .update(JSON.stringify([...describeProgram()]))
    .digest("hex");
}

/**
 * The versions of what runs the code (node, V8, ICU, Unicode and time-zone data: a tzdata update
 * moves UTC times, an ICU update can change text handling).
 */
function describeRuntime(): string {
  const { node, v8, icu, tz, unicode, cldr } = process.versions;
  return `node ${node} v8 ${v8} icu ${icu} tz ${tz} unicode ${unicode} cldr ${cldr}`;
}

/** The nearest folder upwards with a package.json: the package's root, wherever it is installed. */
function findPackageRoot(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

interface Manifest {
  name?: unknown;
  version?: unknown;
  dependencies?: Record<string, unknown>;
  optionalDependencies?: Record<string, unknown>;
}

/** A package's manifest with a version, or (as a string) why it cannot be known. */
function readManifest(dir: string): (Manifest & { version: string }) | string {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Manifest;
    if (typeof manifest.version === "string") return { ...manifest, version: manifest.version };
    return unknownPart(`${dir}/package.json has no version`);
  } catch (error) {
    return unknownPart(`${dir}/package.json: ${(error as Error).message}`);
  }
}

/**
 * Each runtime dependency of the package at `root`, and theirs in turn, as [name, versions]: the
 * package.json found the way `import` finds it from the package that depends on it (node_modules
 * folders upwards, so also when installed into a broadcaster's project, hoisted or nested). Read
 * from the folder, not through the package's exports, which need not export its package.json.
 * An optional dependency not installed (another platform's binary) is left out; a required one
 * that is missing or has no readable version is unknown.
 */
export function describeDependencies(root: string): [string, string][] {
  const manifest = readManifest(root);
  if (typeof manifest === "string") return [["dependencies", manifest]];
  const versions = new Map<string, Set<string>>();
  const visited = new Set<string>();
  const visit = (dir: string, { dependencies = {}, optionalDependencies = {} }: Manifest) => {
    const resolvePaths = createRequire(join(dir, "package.json")).resolve.paths;
    for (const name of Object.keys({ ...dependencies, ...optionalDependencies })) {
      const found = (resolvePaths(name) ?? [])
        .map((modules) => join(modules, name))
        .find((candidate) => existsSync(join(candidate, "package.json")));
      const seen = versions.get(name) ?? new Set();
      versions.set(name, seen);
      if (found === undefined) {
        if (!(name in optionalDependencies)) seen.add(unknownPart("not installed"));
        continue;
      }
      if (visited.has(found)) continue;
      visited.add(found);
      const installed = readManifest(found);
      seen.add(typeof installed === "string" ? installed : installed.version);
      if (typeof installed !== "string") visit(found, installed);
    }
  };
  visit(root, manifest);
  return [...versions]
    .filter(([, seen]) => seen.size > 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, seen]) => [name, [...seen].sort().join(" ")]);
}

/** A folder's files and their digests as one SHA-256; a file or folder not read: unknown. */
function digestOfFolder(dir: string): string {
  const { digests, unread } = digestsUnder(dir);
  if (unread !== undefined) return unknownPart(`${unread} could not be read`);
  return createHash("sha256").update(JSON.stringify(digests)).digest("hex");
}

/**
 * Each file under `dir` by its path there, with its kind and digest; a file that cannot be read,
 * or a folder that cannot be listed, with why instead, and `unread`: the first of them. A link
 * is taken by where it points (the loader follows it within the data folder only).
 */
function digestsUnder(
  dir: string,
  known?: KnownDigests,
): { digests: [string, string][]; unread: string | undefined } {
  let unread: string | undefined;
  const digests = entriesUnder(dir).map(({ path, kind, code }): [string, string] => {
    const name = relative(dir, path).split(sep).join("/");
    try {
      if (code !== undefined) throw Object.assign(new Error(code), { code });
      const digest =
        kind === "link"
          ? createHash("sha256").update(readlinkSync(path)).digest("hex")
          : fileDigest(path, known);
      return [name, `${kind} ${digest}`];
    } catch (error) {
      unread ??= path;
      return [name, `unreadable ${(error as NodeJS.ErrnoException).code}`];
    }
  });
  return { digests, unread };
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
