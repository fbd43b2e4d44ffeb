import { constants } from "node:fs";
import { type FileHandle, open, readdir, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { STATE_DIR } from "../../build/stateFolder.js";
import type { ImportNote } from "../importNote.js";
import { decodeXml } from "./decodeXml.js";
import { FeedError, notWellFormed } from "./feedError.js";
import type { FeedBudget } from "./feedLimits.js";
import type { FeedDocument } from "./parseFeedDocuments.js";
import { XmlSyntaxError } from "./xmlTree.js";

/** The feed's own bookkeeping (spi-static's), which holds no SPI document. */
const SKIPPED_FOLDERS = new Set([STATE_DIR, "node_modules", ".git"]);

/**
 * The XML documents of the given files and folders (folders read recursively, in name order),
 * each with its path relative to the folder it was found in, which locates a PI document.
 * Within a folder only regular files are read: a link or special file is noted, never
 * followed (a PI that is a link would otherwise go missing without a word). A file that cannot
 * be read is noted; one too large, or not in its encoding, stops the import.
 */
export async function readFeedFiles(
  sources: readonly string[],
  budget: FeedBudget,
  notes: ImportNote[],
): Promise<FeedDocument[]> {
  const documents: FeedDocument[] = [];
  for (const source of sources) {
    const info = await stat(source).catch((error: NodeJS.ErrnoException) => {
      throw new FeedError(`${source}: cannot be read (${error.code ?? error.message})`, notes);
    });
    if (!info.isDirectory()) {
      const text = await readDocument(source, 0, budget, notes);
      if (text !== undefined) documents.push({ source, path: source, text });
      continue;
    }
    const entries = await readdir(source, { recursive: true, withFileTypes: true });
    const files: string[] = [];
    for (const entry of entries) {
      if (!entry.name.toLowerCase().endsWith(".xml")) continue;
      const file = join(entry.parentPath, entry.name);
      if (
        relative(source, file)
          .split(sep)
          .some((part) => SKIPPED_FOLDERS.has(part))
      )
        continue;
      if (entry.isFile()) files.push(file);
      else if (!entry.isDirectory()) {
        notes.push({
          origin: file,
          message: `${entry.isSymbolicLink() ? "is a link" : "is not a regular file"}: not read (a feed's files are read only as regular files in its folder)`,
        });
      }
    }
    files.sort();
    for (const file of files) {
      const text = await readDocument(file, constants.O_NOFOLLOW, budget, notes);
      if (text !== undefined) documents.push({ source: file, path: relative(source, file), text });
    }
  }
  return documents;
}

/** A file's text, within the budget; undefined (and a note) when it cannot be read. */
async function readDocument(
  file: string,
  flags: number,
  budget: FeedBudget,
  notes: ImportNote[],
): Promise<string | undefined> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO named as a source must not hang the import.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    notes.push({
      origin: file,
      message:
        code === "ELOOP"
          ? "is a link: not read (a feed's files are read only as regular files in its folder)"
          : `cannot be read (${code ?? (error as Error).message}): not imported`,
    });
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      notes.push({ origin: file, message: "is not a regular file: not read" });
      return undefined;
    }
    budget.take(info.size, file);
    // Never more than the cap, whatever the size said: the file may grow while it is read.
    const cap = budget.limits.documentBytes;
    let bytes = Buffer.alloc(Math.min(info.size, cap) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(bytes, length, bytes.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > cap) budget.take(length, file);
      if (length === bytes.length) {
        const grown = Buffer.alloc(Math.min(bytes.length * 2, cap + 1));
        bytes.copy(grown);
        bytes = grown;
      }
    }
    try {
      return decodeXml(bytes.subarray(0, length), file);
    } catch (error) {
      if (error instanceof XmlSyntaxError) throw notWellFormed(error, notes);
      throw error;
    }
  } catch (error) {
    if (error instanceof FeedError) throw error;
    notes.push({
      origin: file,
      message: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): not imported`,
    });
    return undefined;
  } finally {
    await handle.close();
  }
}
