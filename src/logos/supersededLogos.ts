import { lstat, readdir, readFile, utimes } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { KEYED_SI_PATH, OPEN_SI_PATH, type PlannedDocument } from "../site/siteContract.js";

/**
 * How long a logo file stays published after SI stopped naming it. TS 102 818 §10.5.1 asks
 * devices only to respect the HTTP expiry of what they fetch (the open SI: an hour), and sets no
 * refresh interval for SI, so radios that fetch SI once a day, or hold it over a night, exist;
 * 48 hours covers one such day plus one missed nightly build, and costs a few kilobytes.
 */
export const SUPERSEDED_LOGO_GRACE_MS = 48 * 60 * 60 * 1000;

/** A logo's path in out/, exactly as the build names them (and as the edge rules serve them). */
export const LOGO_FILE =
  /^logos\/(provider|services\/[a-z0-9]+|groups\/[a-z][a-z0-9-]*)\/\d+x\d+-[0-9a-f]{16}\.(png|jpg)$/;

/**
 * The logo files already in out/logos/ that no logo of this build is named like but that a radio
 * may still ask for, as documents with their own bytes: so the publish stage keeps owning them,
 * and prunes them the first build after they are left out. No record is kept: a file's
 * modification time says when it was superseded. A logo the published SI (the one this build
 * replaces) still names is superseded by this build: its time is set to `now` and it is kept;
 * one named by no SI is kept while its time is within the grace period. `now` is the real clock
 * (file times are real times; --now moves the schedule, not them).
 */
export async function supersededLogos(
  outDir: string,
  current: ReadonlySet<string>,
  now: number = Date.now(),
): Promise<PlannedDocument[]> {
  const candidates = (await logoFilesIn(outDir)).filter((path) => !current.has(path));
  if (candidates.length === 0) return [];
  const publishedSi = await Promise.all(
    [OPEN_SI_PATH, KEYED_SI_PATH].map((path) =>
      readFile(join(outDir, path), "utf8").catch(() => ""),
    ),
  );
  const documents: PlannedDocument[] = [];
  for (const path of candidates) {
    const file = join(outDir, path);
    // SI names a logo by an absolute URL ending in its path in out/.
    const namedNow = publishedSi.some((si) => si.includes(`/${path}"`));
    if (namedNow) await utimes(file, new Date(now), new Date(now));
    else if (now - (await lstat(file)).mtimeMs >= SUPERSEDED_LOGO_GRACE_MS) continue;
    const bytes = await readFile(file);
    documents.push({ path, inputs: `logo ${path}`, render: () => bytes });
  }
  return documents;
}

/** The regular files under out/logos/ with a logo's name (links and anything else left alone). */
async function logoFilesIn(outDir: string): Promise<string[]> {
  const root = join(outDir, "logos");
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(outDir, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .filter((path) => LOGO_FILE.test(path))
    .sort();
}
