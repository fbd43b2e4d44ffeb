import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

interface Scheduled {
  broadcaster: { provider: unknown; services: unknown };
}

/**
 * The render stage alone, as the build runs it, from the loaded and laid-out model: every PI and
 * SI document to bytes, nothing written, `rounds` times. bench/ compiles apart from src/, so
 * this loads the built modules; the types above are the little of them it uses.
 */
export async function renderInMemory(dataDir: string, now: number, rounds: number) {
  const load = (path: string) => import(pathToFileURL(join(repoRoot, "dist", path)).href);
  const { loadAndSchedule } = (await load("loadAndSchedule.js")) as {
    loadAndSchedule(dir: string, now: number): Promise<{ scheduled?: Scheduled }>;
  };
  const { renderSite } = (await load("render/renderSite.js")) as {
    renderSite(scheduled: Scheduled, now: number): Iterable<{ content: Buffer }>;
  };
  const { scheduled } = await loadAndSchedule(dataDir, now);
  if (!scheduled) throw new Error(`${dataDir} did not load`);
  const seconds: number[] = [];
  const cpuSeconds: number[] = [];
  let documents = 0;
  for (let round = 0; round < rounds; round++) {
    // A new render each round: each service's element cache starts empty, as in a build.
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    documents = 0;
    for (const _document of renderSite(scheduled, now)) documents++;
    seconds.push((performance.now() - started) / 1000);
    const cpu = process.cpuUsage(cpuStarted);
    cpuSeconds.push((cpu.user + cpu.system) / 1e6);
  }
  return { documents, seconds, cpuSeconds };
}
