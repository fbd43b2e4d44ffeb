import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readBuildState } from "../build/buildState.js";
import { deployedAssets } from "../edge/assetLimit.js";
import { SpiStaticError } from "../exit/spiStaticError.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../site/siteContract.js";

/**
 * The incremental upload of out/ to an object store (docs/deploy.md, "Past the assets limit"):
 * from the build's own state and the record of what the bucket holds, the night's changes in
 * the order that never serves a half-done night — new and changed documents first, the SI
 * after them (it may name a new service or logo), removed documents last (the SI no longer
 * names them), and the record only when all of that succeeded. A failed upload leaves the old
 * record, so the next run plans every change since it again: puts and deletes are idempotent.
 */

/** upload-list's record format; another is refused rather than misread. */
export const UPLOAD_RECORD_FORMAT = 1;

/** Each document's identity (path → version and content digest, or the file's SHA-256). */
export type Documents = ReadonlyMap<string, string>;

export interface UploadPlan {
  /** Put first: new and changed PI documents and logos. */
  documents: string[];
  /** Put once every document is: the open and keyed SI. */
  serviceInformation: string[];
  /** Delete last: what the bucket holds and out/ no longer does. */
  deletes: string[];
  /** What the bucket holds once all three are done: the next run's record. */
  record: Documents;
}

const SERVICE_INFORMATION = new Set([OPEN_SI_PATH, KEYED_SI_PATH]);

/** `uploaded`: the record of the last complete upload; undefined: none (everything is put). */
export function planUpload(current: Documents, uploaded: Documents | undefined): UploadPlan {
  const changed = [...current.keys()].filter((path) => uploaded?.get(path) !== current.get(path));
  return {
    documents: changed.filter((path) => !SERVICE_INFORMATION.has(path)).sort(),
    serviceInformation: changed.filter((path) => SERVICE_INFORMATION.has(path)).sort(),
    deletes: [...(uploaded?.keys() ?? [])].filter((path) => !current.has(path)).sort(),
    record: current,
  };
}

export class UploadListError extends SpiStaticError {
  readonly kind = "failure";
}

/**
 * The documents out/ serves (the build's owned files that an asset deploy would upload) with
 * their identities: a PI or SI document's version and content digest from the build's state
 * (no file read), any other (the logos) the SHA-256 of its bytes.
 */
export async function servedDocuments(outDir: string): Promise<Map<string, string>> {
  const state = readBuildState(outDir);
  if (state.owned.size === 0) throw new UploadListError(`${outDir} holds no build: build first`);
  if (state.unfinished) {
    throw new UploadListError(
      `${outDir} is from a build that did not finish: build again, then upload`,
    );
  }
  const assetsIgnore = await readFile(join(outDir, ".assetsignore"), "utf8").catch(() => {
    throw new UploadListError(`${outDir} has no .assetsignore: it is not a site spi-static built`);
  });
  const documents = new Map<string, string>();
  for (const path of deployedAssets([...state.owned].sort(), assetsIgnore)) {
    const version = state.versions.get(path);
    documents.set(
      path,
      version
        ? `v${version.version} ${version.content}`
        : createHash("sha256")
            .update(await readFile(join(outDir, path)))
            .digest("hex"),
    );
  }
  return documents;
}

/** The record of the last complete upload; undefined when there is none yet. */
export async function readUploadRecord(file: string): Promise<Documents | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const damaged = (problem: string) =>
    new UploadListError(
      `${file} is damaged: ${problem}. Delete it to put every document again (removed ones then stay in the bucket, never served)`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw damaged("it is not valid JSON");
  }
  const { format, documents } = (parsed ?? {}) as { format?: unknown; documents?: unknown };
  if (format !== UPLOAD_RECORD_FORMAT) throw damaged(`its format is not ${UPLOAD_RECORD_FORMAT}`);
  if (typeof documents !== "object" || documents === null || Array.isArray(documents)) {
    throw damaged('"documents" is not an object');
  }
  const entries = Object.entries(documents);
  if (entries.some(([, identity]) => typeof identity !== "string")) {
    throw damaged('an entry of "documents" is not text');
  }
  return new Map(entries as [string, string][]);
}

/** The files of a plan, one path a line, as `rclone --files-from-raw` and a shell loop read them. */
export const PLAN_FILES = {
  documents: "documents.txt",
  serviceInformation: "si.txt",
  deletes: "delete.txt",
  record: "uploaded.json",
} as const;

export async function writeUploadPlan(folder: string, plan: UploadPlan): Promise<void> {
  await mkdir(folder, { recursive: true });
  const lines = (paths: string[]) => paths.map((path) => `${path}\n`).join("");
  const record = { format: UPLOAD_RECORD_FORMAT, documents: Object.fromEntries(plan.record) };
  await Promise.all([
    writeFile(join(folder, PLAN_FILES.documents), lines(plan.documents)),
    writeFile(join(folder, PLAN_FILES.serviceInformation), lines(plan.serviceInformation)),
    writeFile(join(folder, PLAN_FILES.deletes), lines(plan.deletes)),
    writeFile(join(folder, PLAN_FILES.record), `${JSON.stringify(record)}\n`),
  ]);
}
