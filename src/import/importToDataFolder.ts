import { lstat, mkdir, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UsageError } from "../exit/spiStaticError.js";
import type { InputProblem } from "../load/text/inputProblem.js";
import { loadAndSchedule } from "../loadAndSchedule.js";
import { type ImportNote, type SummarisedNote, summariseNotes } from "./importNote.js";
import { importFeed } from "./map/importFeed.js";
import { FeedError } from "./read/feedError.js";
import { FEED_LIMITS, FeedBudget, type FeedLimits } from "./read/feedLimits.js";
import { fetchLiveFeed, type LiveFeedOptions } from "./read/fetchLiveFeed.js";
import { type FeedDocument, parseFeedDocuments } from "./read/parseFeedDocuments.js";
import { readFeedFiles } from "./read/readFeedFiles.js";
import { RunDeadline } from "./read/runDeadline.js";
import { dataFolderFiles } from "./write/dataFolderFiles.js";
import { downloadLogos, type ImportedSite } from "./write/downloadLogos.js";

export interface ImportRequest {
  /** Files and folders of SI and PI documents, or a live API. */
  from: { files: string[] } | { api: Omit<LiveFeedOptions, "timeZone" | "now"> };
  dataDir: string;
  timeZone: string;
  /** Service id → its zone, where it is not `timeZone`. */
  serviceTimeZones?: Record<string, string>;
  /** The clock: the live API's window, and the window the written data is checked for. */
  now: number;
  /** Replace files the data folder already has. */
  force: boolean;
  /** How large a document and the whole feed may be (FEED_LIMITS); smaller in tests. */
  limits?: FeedLimits;
  /** Fetch the feed's logos into the data folder as `logo` sources (downloadLogos.ts). */
  downloadLogos?: { timeoutMs: number } | undefined;
}

export interface ImportResult {
  /** The files written, relative to the data folder. */
  files: string[];
  services: number;
  /** Airings read from the feed (each once). */
  programmes: number;
  /** What the data folder cannot say, grouped by message. */
  notes: SummarisedNote[];
  /** What `validate` finds in the written folder. */
  problems: InputProblem[];
}

/** A FeedError thrown before the notes were handed to it gets them: they often say why. */
function withNotes(notes: readonly ImportNote[]): (error: unknown) => never {
  return (error) => {
    if (error instanceof FeedError && error.notes.length === 0 && notes.length > 0) {
      throw new FeedError(error.message, notes);
    }
    throw error;
  };
}

/**
 * The files the import would replace. Refuses (ImportTargetUnsafe) when any folder or file on
 * the way is a link or special file, as \`build\` refuses them in out/: writing through a link
 * could change a file outside the data folder.
 */
async function existingTargets(
  dataDir: string,
  files: readonly { path: string }[],
): Promise<string[]> {
  const existing: string[] = [];
  const checked = new Set<string>();
  for (const file of files) {
    const parts = file.path.split("/");
    for (let depth = 1; depth <= parts.length; depth++) {
      const relativePath = parts.slice(0, depth).join("/");
      if (checked.has(relativePath)) continue;
      checked.add(relativePath);
      const path = join(dataDir, relativePath);
      const info = await lstat(path).catch(() => undefined);
      if (!info) break;
      const last = depth === parts.length;
      if (last ? !info.isFile() : !info.isDirectory()) {
        throw new ImportTargetUnsafe(
          `${path}: ${info.isSymbolicLink() ? "is a link" : last ? "is not a regular file" : "is not a folder"}; import writes only regular files and folders inside the data folder and never through a link: nothing was written`,
        );
      }
      if (last) existing.push(path);
    }
  }
  return existing;
}

/** The folders among the import's sources (a site copy's logos are below one). */
async function foldersOf(sources: readonly string[]): Promise<string[]> {
  const folders = await Promise.all(
    sources.map(async (path) =>
      (await stat(path).catch(() => undefined))?.isDirectory() ? [path] : [],
    ),
  );
  return folders.flat();
}

/** The data folder has files that the import would replace, and --force was not given. */
class ImportTargetExists extends UsageError {}

/** The target holds a link or special file where the import would write: nothing was written. */
class ImportTargetUnsafe extends FeedError {}

/**
 * Reads or fetches the feed, writes the data folder, and checks it as `validate` would. Every
 * document is read and parsed before anything is written: a feed that cannot be imported
 * (FeedError) leaves the data folder as it was.
 */
export async function importToDataFolder(request: ImportRequest): Promise<ImportResult> {
  const notes: ImportNote[] = [];
  const budget = new FeedBudget(request.limits ?? FEED_LIMITS);
  const deadline = new RunDeadline(
    "api" in request.from
      ? request.from.api.timeoutMs
      : (request.downloadLogos?.timeoutMs ?? Number.POSITIVE_INFINITY),
  );
  let documents: FeedDocument[];
  let source: string;
  if ("files" in request.from) {
    documents = await readFeedFiles(request.from.files, budget, notes).catch(withNotes(notes));
    source = request.from.files.join(", ");
  } else {
    documents = await fetchLiveFeed(
      { ...request.from.api, timeZone: request.timeZone, now: request.now },
      budget,
      deadline,
      notes,
    ).catch(withNotes(notes));
    source = request.from.api.baseUrl;
  }
  const feed = parseFeedDocuments(documents, request.timeZone, notes);
  const imported = importFeed(
    feed,
    { timeZone: request.timeZone, serviceTimeZones: request.serviceTimeZones ?? {}, source },
    notes,
  );
  // Logos fetched into sources when asked (issue 27); written with the YAML files.
  const site: ImportedSite =
    "api" in request.from
      ? { apiRoot: request.from.api.baseUrl }
      : { folders: await foldersOf(request.from.files) };
  const { data, files: images } = request.downloadLogos
    ? await downloadLogos(imported, site, deadline, notes)
    : { data: imported, files: [] };
  const siteHost = imported.provider.discovery?.host;
  if (!request.downloadLogos && siteHost !== undefined) {
    notes.push({
      origin: source,
      message: `the logos stay URLs on ${siteHost}, where this data's build will be served: it publishes none for them, so they answer 404 once it replaces the site; --download-logos takes them from the imported copy as logo sources`,
    });
  }
  const files = [...dataFolderFiles(data, source), ...images];

  const existing = await existingTargets(request.dataDir, files);
  if (!request.force) {
    if (existing.length > 0) {
      throw new ImportTargetExists(
        `${existing.slice(0, 3).join(", ")}${existing.length > 3 ? ` and ${existing.length - 3} more` : ""} already exist: nothing was written (--force replaces them)`,
      );
    }
  }
  for (const file of files) {
    const path = join(request.dataDir, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, "bytes" in file ? file.bytes : file.text);
  }
  const { problems } = await loadAndSchedule(request.dataDir, request.now);
  const programmes = new Set(
    feed.programmeInformation.flatMap((pi) =>
      pi.document.programmes.map((p) => `${p.crid} ${p.start}`),
    ),
  ).size;
  return {
    files: files.map((f) => f.path),
    services: data.services.length,
    programmes,
    notes: summariseNotes(notes),
    problems,
  };
}
