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

/** Each relative import of each file below src/, as the path below src/ that it names. */
async function importsOf(): Promise<[file: string, imported: string][]> {
  const found: [string, string][] = [];
  for (const file of await sourceFiles()) {
    const text = await readFile(join(SRC, file), "utf8");
    for (const [, specifier = ""] of text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)) {
      found.push([
        file,
        relative(SRC, join(SRC, dirname(file), specifier)).replace(/\.js$/, ".ts"),
      ]);
    }
  }
  return found;
}

/** The first folder of a path below src/, "" for src/ itself. */
function stageOf(path: string): string {
  const folder = dirname(path);
  return folder === "." ? "" : (folder.split("/")[0] ?? "");
}

it("has no stage importing from a stage above it (static and dynamic imports, types included)", async () => {
  const upward: string[] = [];
  for (const [file, imported] of await importsOf()) {
    const [from, to] = [stageOf(file), stageOf(imported)];
    expect(FLOORS[from], `src/${file}: give its folder a floor`).toBeDefined();
    expect(FLOORS[to], `src/${imported}: give its folder a floor`).toBeDefined();
    if (to !== from && (FLOORS[to] ?? 0) >= (FLOORS[from] ?? 0)) {
      upward.push(`src/${file} imports src/${imported}`);
    }
  }
  expect(upward).toEqual([]);
});

/**
 * The rooms of load/, one level deeper: a room imports its own files and the rooms below it. A
 * new folder under src/load/ gets a floor here (and a line in docs/maintainers/internals.md).
 */
const LOAD_FLOORS: Record<string, number> = {
  text: 0, // bytes → YAML values with positions; the problems that point at them
  formats: 1, // the SPI and RadioDNS rules for single values: URIs, bearers, languages, genres, sizes
  schema: 2, // the shape of each kind of data file, and checking a value against it
  model: 3, // the Broadcaster every later stage reads
  files: 3, // the data folder: listing, size limits, the parse workers, the engine's two ports
  checks: 4, // rules across fields and files, and their warnings
  logos: 4, // logos listed or made from a source image
  "": 5, // the loaders: data folder → Broadcaster
};

/**
 * load/'s face: what a stage outside load/ may import of it. The model, the format rules and the
 * problem type are everyone's; the rest names who may reach it and why.
 */
const LOAD_FACE: Record<string, "everyone" | readonly string[]> = {
  "model/": "everyone",
  "formats/": "everyone",
  "text/inputProblem.ts": "everyone",
  "loadBroadcaster.ts": ["", "build", "cli"], // the public loader
  "files/": ["", "build", "edge"], // the engine's two ports; the edge reads its keys file as a data file
  "schema/": ["import", "cli"], // import writes data files in the input's shape; cli writes its JSON Schema
  "logos/logoSourceImage.ts": ["logos", "import"], // sharp: the logo stage makes logos, import checks downloads
  "text/decodeUtf8.ts": ["import"], // feeds are decoded as data files are
  "text/linePositions.ts": ["import"], // and their values located as data files' are
};

function loadRoomOf(path: string): string {
  const parts = path.split("/");
  return parts.length > 2 ? (parts[1] ?? "") : "";
}

it("keeps load/'s rooms in order: each imports only its own files and the rooms below it", async () => {
  const upward: string[] = [];
  for (const [file, imported] of await importsOf()) {
    if (stageOf(file) !== "load" || stageOf(imported) !== "load") continue;
    const [from, to] = [loadRoomOf(file), loadRoomOf(imported)];
    expect(LOAD_FLOORS[from], `src/${file}: give its room a floor`).toBeDefined();
    if (to !== from && (LOAD_FLOORS[to] ?? 0) >= (LOAD_FLOORS[from] ?? 0)) {
      upward.push(`src/${file} imports src/${imported}`);
    }
  }
  expect(upward).toEqual([]);
});

it("lets other stages reach load/ only through its face (schedule and render: model, formats, problems)", async () => {
  const behind: string[] = [];
  for (const [file, imported] of await importsOf()) {
    const stage = stageOf(file);
    if (stage === "load" || stageOf(imported) !== "load") continue;
    const inLoad = imported.slice("load/".length);
    const face = Object.entries(LOAD_FACE).find(([path]) => inLoad.startsWith(path));
    if (!face || (face[1] !== "everyone" && !face[1].includes(stage))) {
      behind.push(`src/${file} imports src/${imported}`);
    }
  }
  expect(behind).toEqual([]);
});

it("has no import circle in src/ (types included)", async () => {
  const edges = new Map<string, string[]>();
  for (const [file, imported] of await importsOf()) {
    if (imported.endsWith(".ts")) edges.set(file, [...(edges.get(file) ?? []), imported]);
  }
  const done = new Set<string>();
  const onPath: string[] = [];
  const circles: string[] = [];
  const visit = (file: string): void => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      circles.push([...onPath.slice(at), file].join(" → "));
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of edges.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of edges.keys()) visit(file);
  expect(circles).toEqual([]);
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
