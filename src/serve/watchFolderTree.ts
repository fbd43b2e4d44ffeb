import { type FSWatcher, watch } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * Calls `onChange` for any change in `root` or a folder below it. Each folder is watched on its
 * own: Node 20's recursive watch on Linux loses a file once it is replaced by a rename, which is
 * how many editors save (write a temporary file, rename it over the old one). Folders that
 * appear later are picked up at the next change; watches of removed ones are dropped.
 */
export function watchFolderTree(root: string, onChange: () => void): { close(): void } {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  async function scan(folder: string) {
    if (closed || watchers.has(folder)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, () => {
        onChange();
        void rescan();
      });
    } catch {
      return; // gone already
    }
    watcher.on("error", () => {
      watcher.close();
      watchers.delete(folder);
    });
    watchers.set(folder, watcher);
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) await scan(join(folder, entry.name));
  }

  async function rescan() {
    for (const folder of [...watchers.keys()]) {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => undefined);
      if (entries === undefined) {
        watchers.get(folder)?.close();
        watchers.delete(folder);
        continue;
      }
      for (const entry of entries) if (entry.isDirectory()) await scan(join(folder, entry.name));
    }
  }

  void scan(root);
  return {
    close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
