import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { FeedDocument } from "./parseFeedDocuments.js";

/** The feed's own bookkeeping (spi-static's), which holds no SPI document. */
const SKIPPED_FOLDERS = new Set(["_spi-static", "node_modules", ".git"]);

/**
 * The XML documents of the given files and folders (folders read recursively, in name order),
 * each with its path relative to the folder it was found in, which locates a PI document.
 */
export async function readFeedFiles(sources: readonly string[]): Promise<FeedDocument[]> {
  const documents: FeedDocument[] = [];
  for (const source of sources) {
    const info = await stat(source);
    if (!info.isDirectory()) {
      documents.push({ source, path: source, text: await readFile(source, "utf8") });
      continue;
    }
    const entries = await readdir(source, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile() && e.name.toLowerCase().endsWith(".xml"))
      .map((e) => join(e.parentPath, e.name))
      .filter(
        (file) =>
          !relative(source, file)
            .split(sep)
            .some((part) => SKIPPED_FOLDERS.has(part)),
      )
      .sort();
    for (const file of files) {
      documents.push({
        source: file,
        path: relative(source, file),
        text: await readFile(file, "utf8"),
      });
    }
  }
  return documents;
}
