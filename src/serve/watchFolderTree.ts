import { type FSWatcher, watch } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/** How often the root itself is looked at: nothing else notices it replaced or gone. */
const ROOT_POLL_MS = 1000;

/**
 * Calls `onChange` for any change in `root` or a folder below it. Each folder is watched on its
 * own: Node 20's recursive watch on Linux loses a file once it is replaced by a rename, which is
 * how many editors save (write a temporary file, rename it over the old one). Folders that
 * appear later are picked up at the next change; watches of removed ones are dropped.
 *
 * A watch follows the folder it was opened on, not its name: a folder replaced by a new one of
 * the same name (re-running import, switching branches, `mv schedules old && mkdir schedules`)
 * would otherwise go unwatched for good. So each watch remembers its folder's inode, and a name
 * that now holds another folder is watched again. The root has no watched parent to say so:
 * it is looked at every second, and its disappearance and return are changes too.
 */
export function watchFolderTree(root: string, onChange: () => void): { close(): void } {
  const watchers = new Map<string, { watcher: FSWatcher; inode: string }>();
  let closed = false;
  let rootInode: string | undefined;

  /** The folder's identity (device and inode), or undefined when it is no folder or gone. */
  async function folderInode(folder: string): Promise<string | undefined> {
    const stats = await stat(folder).catch(() => undefined);
    return stats?.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
  }

  function unwatch(folder: string) {
    watchers.get(folder)?.watcher.close();
    watchers.delete(folder);
  }

  async function scan(folder: string) {
    if (closed) return;
    const inode = await folderInode(folder);
    const watched = watchers.get(folder);
    if (watched && watched.inode === inode) return;
    if (watched) unwatch(folder);
    if (inode === undefined || closed) return;
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
      if (watchers.get(folder)?.watcher === watcher) unwatch(folder);
      else watcher.close();
    });
    watchers.set(folder, { watcher, inode });
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory()) await scan(join(folder, entry.name));
  }

  async function rescan() {
    for (const folder of [...watchers.keys()]) {
      const inode = await folderInode(folder);
      if (inode === undefined) {
        unwatch(folder);
        continue;
      }
      if (inode !== watchers.get(folder)?.inode) {
        // Another folder under the same name: watch it, and what it holds, from scratch.
        unwatch(folder);
        await scan(folder);
        onChange();
        continue;
      }
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => undefined);
      for (const entry of entries ?? []) {
        if (entry.isDirectory()) await scan(join(folder, entry.name));
      }
    }
  }

  async function checkRoot() {
    const inode = await folderInode(root);
    if (closed || inode === rootInode) return;
    rootInode = inode;
    await scan(root);
    onChange();
  }

  void folderInode(root).then((inode) => {
    rootInode = inode;
    return scan(root);
  });
  const poll = setInterval(() => void checkRoot(), ROOT_POLL_MS);
  poll.unref();
  return {
    close() {
      closed = true;
      clearInterval(poll);
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
