import { readdir, readFile } from "node:fs/promises";
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
