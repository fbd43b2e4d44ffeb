import { readdir, readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The parse floor (issue 23): `node parseFloor.js <dist> <data>` parses and validates every data
 * file of a data folder with the project's own reader (the compiled parse workers of `<dist>`),
 * on one worker thread per core, and nothing else: no digests, no cache, no schedule, no render,
 * no writes, and no parsed file kept once looked at. With the copy floor it is what a full build
 * cannot go below. Prints one JSON line.
 */

interface ParseWorkers {
  run(request: {
    kind: string;
    file: string;
    bytes: Uint8Array;
  }): Promise<{ problems?: { severity: string }[]; unreadable?: unknown }>;
  close(): Promise<void>;
}

const [dist = "", dataDir = ""] = process.argv.slice(2);
const module = pathToFileURL(join(dist, "load", "files", "parseInWorkers.js")).href;
const { parseWorkerScript, startParseWorkers } = (await import(module)) as {
  parseWorkerScript(): URL | undefined;
  startParseWorkers(count: number, script: URL): ParseWorkers;
};
const script = parseWorkerScript();
if (!script) throw new Error(`no compiled parse worker in ${dist}`);

/** The data folder's layout, as load/loadBroadcaster.ts lists it. */
async function dataFiles(): Promise<{ kind: string; path: string }[]> {
  const yamlIn = async (dir: string) =>
    (await readdir(dir).catch(() => []))
      .filter((name) => name.endsWith(".yaml"))
      .sort()
      .map((name) => join(dir, name));
  const episodes = join(dataDir, "episodes");
  const folders = (await readdir(episodes).catch(() => [])).sort();
  return [
    { kind: "provider", path: join(dataDir, "provider.yaml") },
    ...(await yamlIn(join(dataDir, "services"))).map((path) => ({ kind: "service", path })),
    ...(await yamlIn(join(dataDir, "schedules"))).map((path) => ({ kind: "schedule", path })),
    ...(await Promise.all(folders.map((name) => yamlIn(join(episodes, name)))))
      .flat()
      .map((path) => ({ kind: "episodes", path })),
  ];
}

const threads = availableParallelism();
const workers = startParseWorkers(threads, script);
const files = await dataFiles();
/** Files read and in the workers at once: the floor's memory stays bounded at any size. */
const IN_FLIGHT = threads * 4;
let bytes = 0;
let errors = 0;
try {
  const running = new Set<Promise<void>>();
  for (const { kind, path } of files) {
    const read = await readFile(path);
    bytes += read.byteLength;
    // Each answer is looked at and dropped: a build keeps a summary, not every parsed file.
    const answer = workers.run({ kind, file: path, bytes: read }).then((parsed) => {
      if (parsed.unreadable || parsed.problems?.some((p) => p.severity === "error")) errors++;
      running.delete(answer);
    });
    running.add(answer);
    if (running.size >= IN_FLIGHT) await Promise.race(running);
  }
  await Promise.all(running);
} finally {
  await workers.close();
}
if (errors > 0) throw new Error(`${errors} data files did not validate`);
console.log(JSON.stringify({ threads, files: files.length, megabytes: bytes / 1e6 }));
