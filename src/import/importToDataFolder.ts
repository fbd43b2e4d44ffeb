import { access, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { UsageError } from "../exit/spiStaticError.js";
import type { InputProblem } from "../load/inputProblem.js";
import { loadAndSchedule } from "../loadAndSchedule.js";
import { dataFolderFiles } from "./dataFolderFiles.js";
import { downloadLogos } from "./downloadLogos.js";
import { fetchLiveFeed, type LiveFeedOptions } from "./fetchLiveFeed.js";
import { importFeed } from "./importFeed.js";
import { type ImportNote, type SummarisedNote, summariseNotes } from "./importNote.js";
import { type FeedDocument, parseFeedDocuments } from "./parseFeedDocuments.js";
import { readFeedFiles } from "./readFeedFiles.js";

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

/** The data folder has files that the import would replace, and --force was not given. */
export class ImportTargetExists extends UsageError {}

/** Reads or fetches the feed, writes the data folder, and checks it as `validate` would. */
export async function importToDataFolder(request: ImportRequest): Promise<ImportResult> {
  const notes: ImportNote[] = [];
  let documents: FeedDocument[];
  let source: string;
  if ("files" in request.from) {
    documents = await readFeedFiles(request.from.files);
    source = request.from.files.join(", ");
  } else {
    documents = await fetchLiveFeed(
      { ...request.from.api, timeZone: request.timeZone, now: request.now },
      notes,
    );
    source = request.from.api.baseUrl;
  }
  const feed = parseFeedDocuments(documents, notes);
  const imported = importFeed(
    feed,
    { timeZone: request.timeZone, serviceTimeZones: request.serviceTimeZones ?? {}, source },
    notes,
  );
  // Logos fetched into sources when asked (issue 27); written with the YAML files.
  const { data, files: images } = request.downloadLogos
    ? await downloadLogos(imported, request.downloadLogos.timeoutMs, notes)
    : { data: imported, files: [] };
  const files = [...dataFolderFiles(data, source), ...images];

  if (!request.force) {
    const existing: string[] = [];
    for (const file of files) {
      const path = join(request.dataDir, file.path);
      if (
        await access(path).then(
          () => true,
          () => false,
        )
      )
        existing.push(path);
    }
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
