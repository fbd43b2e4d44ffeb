import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { expect, it } from "vitest";

/**
 * The pipeline runs one way: a stage may import from its own folder and from the floors below
 * it, never from above, types included. A new folder under src/ gets a floor here.
 */
const FLOORS: Record<string, number> = {
  exit: 0, // exit codes, the error base class every stage's thrown errors extend, printable text
  debug: 0.5, // its lines escape control characters as all output does (exit/printableText.ts)
  memo: 0,
  workers: 0, // a pool of worker threads, for the load and render stages alike
  xsd: 0,
  time: 1,
  site: 2,
  load: 3,
  schedule: 4,
  render: 5,
  edge: 5,
  logos: 5, // makes the logos the load stage checked, as documents of the site
  publish: 6, // writes one site file atomically, removes files; knows nothing of out/_spi-static/
  dns: 6, // the DNS records radios need, from the loaded model
  "": 7, // src/loadAndSchedule.ts: load → schedule for validate, serve and import; its report for build
  build: 7.5, // the engine: the only code that reads or writes out/_spi-static/ (lock, fingerprints, plan, state)
  serve: 8,
  verify: 8,
  nginx: 8, // the edge rules for nginx, from a built output folder
  import: 8.5, // reads feeds with verify's fetching, checks what it wrote with loadAndSchedule
  cli: 9,
};

const SRC = new URL("../src", import.meta.url).pathname;

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(SRC, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(SRC, join(e.parentPath, e.name)));
}

/** The first folder of a path below src/, "" for src/ itself. */
function stageOf(path: string): string {
  const folder = dirname(path);
  return folder === "." ? "" : (folder.split("/")[0] ?? "");
}

it("has no stage importing from a stage above it (static and dynamic imports, types included)", async () => {
  const upward: string[] = [];
  for (const file of await sourceFiles()) {
    const from = stageOf(file);
    const text = await readFile(join(SRC, file), "utf8");
    for (const [, specifier = ""] of text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)) {
      const to = stageOf(relative(SRC, join(SRC, dirname(file), specifier)));
      expect(FLOORS[from], `src/${file}: give its folder a floor`).toBeDefined();
      expect(FLOORS[to], `${specifier}: give its folder a floor`).toBeDefined();
      if (to !== from && (FLOORS[to] ?? 0) >= (FLOORS[from] ?? 0)) {
        upward.push(`src/${file} imports ${specifier}`);
      }
    }
  }
  expect(upward).toEqual([]);
});

it("has no code outside src/build/ naming out/_spi-static/ (comments aside): the engine alone keeps it", async () => {
  const naming: string[] = [];
  for (const file of await sourceFiles()) {
    if (stageOf(file) === "build") continue;
    const text = await readFile(join(SRC, file), "utf8");
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    if (code.includes("_spi-static")) naming.push(`src/${file}`);
  }
  expect(naming).toEqual([]);
});

it("leaves no engine hook in the stages: schedule/ and render/ take plain values from the plan", async () => {
  const hooks: string[] = [];
  for (const file of await sourceFiles()) {
    const text = await readFile(join(SRC, file), "utf8");
    for (const name of ["EarlierChecks", "onChecked", "RenderedAhead", "layoutOnDemand"]) {
      if (text.includes(name)) hooks.push(`src/${file}: ${name}`);
    }
    if (["schedule", "render"].includes(stageOf(file)) && /from "\.\.\/build\//.test(text)) {
      hooks.push(`src/${file} imports src/build/`);
    }
  }
  expect(hooks).toEqual([]);
});
