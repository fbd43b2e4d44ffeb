import { readdir, readFile, readlink } from "node:fs/promises";
import { join, relative } from "node:path";

/** Every file below `dir`, as sorted relative paths. */
export async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

/** relative path → content, for comparing whole output folders. */
export async function readTree(dir: string): Promise<Map<string, string>> {
  const files = await listFiles(dir);
  return new Map(
    await Promise.all(files.map(async (f) => [f, await readFile(join(dir, f), "utf8")] as const)),
  );
}

/**
 * The published files below `dir`, as readTree gives them, without the build's bookkeeping
 * folder (it records inodes and mtimes, which differ from one folder to another).
 */
export async function readPublishedFiles(dir: string): Promise<Map<string, string>> {
  const tree = await readTree(dir);
  return new Map([...tree].filter(([path]) => !path.startsWith("_spi-static/")));
}

/**
 * The tree with the named parts of the build's state (out/_spi-static/state.json) left out:
 * `documents` and `stamp` hold each published file's inode and times, `digests` the data
 * files', which no two builds share.
 */
export function withoutStateParts(
  tree: Map<string, string>,
  parts: string[] = ["documents", "stamp"],
): Map<string, string> {
  const path = "_spi-static/state.json";
  const text = tree.get(path);
  if (text === undefined) return tree;
  const state = JSON.parse(text);
  for (const part of parts) delete state[part];
  // The parts' sums (src/build/stateParts.ts) differ with the parts taken out.
  delete state.sums;
  return new Map(
    [...tree].map(([name, content]) => [name, name === path ? JSON.stringify(state) : content]),
  );
}

/**
 * Every stamp (creationTime and version) taken out: a clean build stamps every document with its
 * own clock and version 1, where a folder with a history has later versions.
 */
export function withoutStamps(tree: Map<string, string>): Map<string, string> {
  return new Map(
    [...tree].map(([path, text]) => [
      path,
      text.replace(/ creationTime="[^"]*"( version="[^"]*")?/, ""),
    ]),
  );
}

/**
 * Everything below `dir` without following a link or opening a special file: folders, file
 * contents, link targets, FIFOs. Equal snapshots: nothing in the tree was changed.
 */
export async function snapshotTree(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const snapshot = new Map<string, string>();
  for (const entry of entries) {
    const path = join(entry.parentPath, entry.name);
    const name = relative(dir, path);
    if (entry.isFile()) snapshot.set(name, `file ${await readFile(path, "utf8")}`);
    else if (entry.isSymbolicLink()) snapshot.set(name, `link ${await readlink(path)}`);
    else if (entry.isDirectory()) snapshot.set(name, "folder");
    else snapshot.set(name, "special");
  }
  return snapshot;
}
