import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PublishError } from "../publish/publishError.js";
import { isTemporaryFile } from "../publish/writeFileAtomically.js";
import { STATE_DIR } from "./stateFolder.js";

export interface OutputFolderContents {
  /** Every file outside the build's bookkeeping, as site paths ("radiodns/spi/3.1/SI.xml"). */
  files: string[];
  /** Temporary files of builds that were killed mid-write. */
  leftovers: string[];
  /** Links, FIFOs, sockets and devices, bookkeeping included: the build writes through none. */
  unsafe: string[];
}

/**
 * Projects from before the wrangler config moved to the project root ran
 * `wrangler dev --config out/wrangler.jsonc`, which keeps its state next to its config, in
 * out/.wrangler: a tool's working folder, neither the build's nor someone's foreign file.
 */
const WRANGLER_STATE_DIR = ".wrangler";

/**
 * Lists out/ once, before publishing, to find foreign files, killed builds' leftovers and
 * anything that is neither a regular file nor a folder. Never follows a link.
 */
export function scanOutputFolder(outDir: string): OutputFolderContents {
  const contents: OutputFolderContents = { files: [], leftovers: [], unsafe: [] };
  scanFolder(outDir, "", contents, true);
  contents.files.sort();
  return contents;
}

/** The bookkeeping folder alone: checked before the build lock is taken inside it. */
export function scanStateFolder(outDir: string): OutputFolderContents {
  const contents: OutputFolderContents = { files: [], leftovers: [], unsafe: [] };
  let isFolder: boolean;
  try {
    isFolder = lstatSync(join(outDir, STATE_DIR)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return contents;
    throw error;
  }
  if (isFolder) scanFolder(outDir, STATE_DIR, contents, false);
  else contents.unsafe.push(STATE_DIR);
  return contents;
}

function scanFolder(
  outDir: string,
  prefix: string,
  contents: OutputFolderContents,
  listFiles: boolean,
) {
  const entries = readdirSync(join(outDir, prefix), { withFileTypes: true });
  for (const entry of entries) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path === WRANGLER_STATE_DIR) continue;
      scanFolder(outDir, path, contents, listFiles && path !== STATE_DIR);
    } else if (!entry.isFile()) {
      contents.unsafe.push(path);
    } else if (!listFiles && !(prefix === STATE_DIR && isTemporaryFile(entry.name))) {
      // Bookkeeping: the build's own, neither foreign nor a leftover. A state file's temporary
      // in _spi-static/ is a killed build's (the lock holder alone writes there).
    } else if (isTemporaryFile(entry.name)) {
      contents.leftovers.push(path);
    } else {
      contents.files.push(path);
    }
  }
}

/**
 * Stops the build before it changes anything when out/ holds a link or a special file: writing
 * or deleting through a link could change files outside out/, and opening a FIFO would hang.
 */
export function refuseUnsafeEntries(outDir: string, contents: OutputFolderContents): void {
  const [first] = [...contents.unsafe].sort();
  if (first === undefined) return;
  const more = contents.unsafe.length > 1 ? ` (and ${contents.unsafe.length - 1} more)` : "";
  throw new PublishError(
    join(outDir, first),
    "write",
    new Error(
      `it is a link or a special file, not a regular file or folder${more}; spi-static writes ` +
        "only regular files and folders inside the output folder and never through a link. " +
        "Replace it with the real folder or file, or remove it",
    ),
  );
}
