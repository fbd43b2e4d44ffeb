import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The code that renders (this package's src/ or dist/) and the templates it fills in. */
const CODE_DIRS = [
  fileURLToPath(new URL(".", import.meta.url)),
  fileURLToPath(new URL("../templates/", import.meta.url)),
];

export interface FingerprintInputs {
  dataDir: string;
  /** SHA-256 digests of the API keys the edge rules will accept. */
  keyDigests: string[];
}

/**
 * A SHA-256 over everything a build's output depends on apart from the date: the program itself,
 * every file in the data folder, and the key digests. Two builds with the same fingerprint on the
 * same local day write the same files (creationTime aside), so the second need not run at all.
 * Hashing is a few milliseconds for megabytes of YAML; laying the schedules out is seconds.
 */
export function fingerprintBuild({ dataDir, keyDigests }: FingerprintInputs): string {
  const hash = createHash("sha256");
  for (const dir of CODE_DIRS) hashFolder(hash, dir, "code");
  hash.update(`data folder ${dataDir}\0`);
  hashFolder(hash, dataDir, "data");
  hash.update(`keys ${[...keyDigests].sort().join(",")}\0`);
  return hash.digest("hex");
}

function hashFolder(hash: ReturnType<typeof createHash>, dir: string, label: string): void {
  for (const file of filesUnder(dir)) {
    const bytes = readFileSync(file);
    // Name and length before the bytes, so no two different folders hash the same stream.
    hash.update(`${label} ${relative(dir, file).split(sep).join("/")} ${bytes.length}\0`);
    hash.update(bytes);
  }
}

function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  )) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(path));
    else if (entry.isFile()) files.push(path);
  }
  return files;
}
