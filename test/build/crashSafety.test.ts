import { spawn } from "node:child_process";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { isTemporaryFile } from "../../src/publish/writeFileAtomically.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { readTree, withoutStateParts } from "../outputFolder.js";
import { writeLargerDataset } from "./largerDataset.js";

/** An SI or PI document's version, and the document without it. */
function splitVersion(xml: string): { version: number; rest: string } {
  const match = / version="(\d+)"/.exec(xml);
  return {
    version: Number(match?.[1] ?? 1),
    rest: match ? xml.slice(0, match.index) + xml.slice(match.index + match[0].length) : xml,
  };
}

/** Without creationTime: what a version stands for. */
const contentOf = (rest: string) => rest.replace(/ creationTime="[^"]*"/, "");

const STATE = "_spi-static/state.json";
const CLI = new URL("../../dist/cli/main.js", import.meta.url).pathname;
const SERVICES = 30;
/** Each kill is a whole build (~5 s here); SPI_CRASH_SEED and more runs try other moments. */
const KILLS = 10;
/** Fixed, so a failure can be replayed; SPI_CRASH_SEED tries other moments. */
const SEED = Number(process.env.SPI_CRASH_SEED ?? 20261123);

/**
 * Two builds that differ in every document, so each interrupted build has real work: tonight's
 * (A) and last night's (B: a day earlier, another originator, fewer services, so A creates files
 * that B prunes and B prunes files that A creates).
 */
const TONIGHT = {
  name: "A",
  now: "2026-11-23T03:00:00Z",
  services: SERVICES,
  originator: "Aare Radio A",
};
const LAST_NIGHT = {
  name: "B",
  now: "2026-11-22T03:00:00Z",
  services: SERVICES - 3,
  originator: "Aare Radio B",
};
type Variant = typeof TONIGHT;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  /** From the first document rendered (publishing starts) to the end of the process; undefined if never. */
  publishMs?: number;
}

/**
 * Runs the CLI; with `killAfterMs`, SIGKILLs it that long after it started publishing: when it
 * says why it renders its first document (SPI_STATIC_DEBUG=plan). Loading and scheduling take
 * most of a build, and the lock is held from the start, so a kill timed from either would
 * rarely hit a write.
 */
function build(dataDir: string, outDir: string, now: string, killAfterMs?: number): Promise<Run> {
  const args = ["build", "--data", dataDir, "--out", outDir, "--now", now, "--quiet"];
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, SPI_STATIC_DEBUG: "plan" },
  });
  let stderr = "";
  let exited = false;
  let publishingAt: number | undefined;
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
    if (publishingAt !== undefined || !stderr.includes("spi-static debug plan: ")) return;
    publishingAt = performance.now();
    if (killAfterMs === undefined) return;
    setTimeout(() => {
      if (!exited) child.kill("SIGKILL");
    }, killAfterMs);
  });
  return new Promise<Run>((done) => {
    child.on("exit", (code, signal) => {
      exited = true;
      const publishMs = publishingAt === undefined ? undefined : performance.now() - publishingAt;
      const said = stderr
        .split("\n")
        .filter((line) => !line.startsWith("spi-static debug plan: "))
        .join("\n");
      done({ code, signal, stderr: said, publishMs });
    });
  });
}

/** mulberry32: a small seeded generator, so the kill moments are reproducible. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/*
 * What this proves: recovery. Killed at any moment, a build leaves only complete documents, its
 * stale lock does not block the next one, files it created are still known as its own (journal),
 * and a rerun converges exactly. A single write is over in microseconds, so random kills rarely
 * land inside one: writeFileAtomically.test.ts proves atomicity itself with a concurrent reader.
 */
describe("a build killed with SIGKILL at random moments", () => {
  const data = new Map<string, string>();
  const reference = new Map<string, Map<string, string>>();
  /** How long each variant's publishing takes, uninterrupted: the span the kills are spread over. */
  const duration = new Map<string, number>();

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), "spi-crash-"));
    for (const variant of [TONIGHT, LAST_NIGHT]) {
      const dataDir = join(root, `data-${variant.name}`);
      await writeLargerDataset(dataDir, variant);
      data.set(variant.name, dataDir);
      const outDir = join(root, `reference-${variant.name}`);
      const run = await build(dataDir, outDir, variant.now);
      expect(run).toMatchObject({ code: 0, stderr: expect.not.stringMatching(/error/i) });
      duration.set(variant.name, run.publishMs as number);
      reference.set(variant.name, await readTree(outDir));
    }
  }, 600_000);

  it("leaves every file complete and schema-valid after each kill, and reruns converge to uninterrupted builds", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-crash-out-"));
    await cp(
      join(data.get(LAST_NIGHT.name) as string, "..", `reference-${LAST_NIGHT.name}`),
      outDir,
      {
        recursive: true,
      },
    );
    const completeVersions = new Set<string>();
    for (const tree of reference.values())
      for (const content of tree.values()) completeVersions.add(content);

    // Per document, the version and content last seen: a version never falls, and it rises with
    // every change of content, however the builds were killed.
    const seen = new Map<string, { version: number; content: string }>();
    const schemaValid = new Set<string>();
    const next = random(SEED);
    let killedMidPublish = 0;
    let killed = 0;
    let leftovers = 0;
    // KILLS kills, and more (up to three times as many) while too few of them landed mid-publish:
    // a busy machine stretches the builds, and a kill timed from an idle run may come too late.
    for (let kill = 0; kill < KILLS || (killedMidPublish < 3 && kill < 3 * KILLS); kill++) {
      const variant: Variant = kill % 2 === 0 ? TONIGHT : LAST_NIGHT;
      const delay = Math.round(next() * (duration.get(variant.name) as number));
      const run = await build(data.get(variant.name) as string, outDir, variant.now, delay);
      const moment = `kill ${kill + 1} (seed ${SEED}, ${variant.name}, ${delay} ms into publishing)`;
      expect(run.signal === "SIGKILL" || run.code === 0, `${moment}: ${run.stderr}`).toBe(true);
      if (run.signal === "SIGKILL") killed++;

      const tree = await readTree(outDir);
      const site = [...tree].filter(([path]) => !path.startsWith("_spi-static/"));
      const temporary = site.filter(([path]) => isTemporaryFile(path.split("/").at(-1) as string));
      leftovers += temporary.length;
      const published = site.filter(([path]) => !isTemporaryFile(path.split("/").at(-1) as string));
      const xml = published.filter(([path]) => path.endsWith(".xml"));
      // A document that differs from one already validated only in its version (a positive
      // integer, checked below) is as valid: only new texts go to the schema.
      const unseen = xml.filter(([, content]) => !schemaValid.has(splitVersion(content).rest));
      const violations = await validateSpiDocuments(
        unseen.map(([name, content]) => ({ name, xml: content })),
      );
      expect(violations, moment).toEqual([]);
      for (const [, content] of unseen) schemaValid.add(splitVersion(content).rest);
      for (const [path, xml] of published) {
        if (!path.endsWith(".xml")) continue;
        const { version, rest } = splitVersion(xml);
        expect(version, `${moment}: ${path}`).toBeGreaterThan(0);
        const before = seen.get(path);
        const content = contentOf(rest);
        if (before) {
          expect(version, `${moment}: ${path}`).toBeGreaterThanOrEqual(before.version);
          if (before.content !== content) {
            expect(version, `${moment}: ${path}`).toBeGreaterThan(before.version);
          }
        }
        seen.set(path, { version, content });
      }
      for (const [path, content] of published) {
        if (!path.endsWith(".xml"))
          expect(completeVersions.has(content), `${moment}: ${path}`).toBe(true);
      }
      const originators = new Set(
        xml.map(([, content]) => /originator="([^"]+)"/.exec(content)?.[1]),
      );
      if (originators.size > 1) killedMidPublish++;
    }
    // The kills must have hit builds while they were writing, or this test proves nothing.
    expect(killedMidPublish).toBeGreaterThanOrEqual(3);

    // Reruns of both builds converge: files that killed builds created are known as their own,
    // so last night's rerun prunes tonight's new files and tonight's rerun prunes last night's.
    for (const variant of [LAST_NIGHT, TONIGHT]) {
      const rerun = await build(data.get(variant.name) as string, outDir, variant.now);
      expect(rerun.code, rerun.stderr).toBe(0);
      // The stamp and the document record hold inodes and modification times, which no two
      // builds share; the digest record the data files' (and which had settled when it ran).
      // Versions are the one other difference: the rerun's documents have changed more often.
      // The logos part names the other night's logos this rerun keeps (below).
      const parts = ["documents", "stamp", "digests", "versions", "logos"];
      const converged = withoutStateParts(await readTree(outDir), parts);
      const expected = withoutStateParts(new Map(reference.get(variant.name)), parts);
      // The other night's logos stay published for a grace period (src/build/plannedLogos.ts),
      // each exactly as that night wrote it, and owned, so a later build prunes them.
      const other = reference.get(variant === TONIGHT ? LAST_NIGHT.name : TONIGHT.name);
      const superseded = new Set<string>();
      for (const [path, content] of [...converged]) {
        if (!path.startsWith("logos/") || expected.has(path)) continue;
        expect(other?.get(path) === content, `rerun of ${variant.name}: ${path}`).toBe(true);
        superseded.add(path);
        converged.delete(path);
      }
      const state = JSON.parse(converged.get(STATE) ?? "{}");
      expect(state.owned).toEqual(expect.arrayContaining([...superseded]));
      state.owned = state.owned.filter((path: string) => !superseded.has(path));
      converged.set(STATE, JSON.stringify(state));
      expect([...converged.keys()], `rerun of ${variant.name}`).toEqual([...expected.keys()]);
      for (const [path, content] of expected) {
        const same = path.endsWith(".xml")
          ? splitVersion(converged.get(path) ?? "").rest === splitVersion(content).rest
          : converged.get(path) === content;
        expect(same, `rerun of ${variant.name}: ${path}`).toBe(true);
      }
    }
    console.info(
      `crash test: ${SERVICES} services, publishing takes ${[...duration.values()].map(Math.round).join("/")} ms; ` +
        `${killed} of ${KILLS} builds killed, ${killedMidPublish} of them leaving a mix of both builds' documents, ` +
        `${leftovers} temporary files seen after kills (removed by the next build)`,
    );
  }, 900_000);
});
