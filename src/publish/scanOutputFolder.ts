import { readdirSync } from "node:fs";
import { join } from "node:path";
import { STATE_DIR } from "./stateFolder.js";
import { isTemporaryFile } from "./writeFileAtomically.js";

export interface OutputFolderContents {
  /** Every file outside the build's bookkeeping, as site paths ("radiodns/spi/3.1/SI.xml"). */
  files: string[];
  /** Temporary files of builds that were killed mid-write. */
  leftovers: string[];
}

/** Lists out/ once, after publishing, to find foreign files and killed builds' leftovers. */
export function scanOutputFolder(outDir: string): OutputFolderContents {
  const contents: OutputFolderContents = { files: [], leftovers: [] };
  scanFolder(outDir, "", contents);
  contents.files.sort();
  return contents;
}

function scanFolder(outDir: string, prefix: string, contents: OutputFolderContents) {
  const entries = readdirSync(join(outDir, prefix), { withFileTypes: true });
  for (const entry of entries) {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (path !== STATE_DIR) scanFolder(outDir, path, contents);
    } else if (isTemporaryFile(entry.name)) {
      contents.leftovers.push(path);
    } else {
      contents.files.push(path);
    }
  }
}
