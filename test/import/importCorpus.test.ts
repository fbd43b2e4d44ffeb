import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "../cli/runInProcess.js";

/**
 * test/fixtures/import/corpus: one folder per case a real feed shows (CASES.md), each a `feed/`
 * of minimal SI and PI documents written for it and an `expected.json`: the exit code, lines
 * the report must contain (`<feed>` for the feed folder), lines it must not, and what written
 * files must contain. A case that stops (exit 3) must leave the data folder empty; one that
 * writes exits as `validate` of what it wrote does, and one marked `builds` then builds.
 */
const CORPUS = resolve("test/fixtures/import/corpus");
const root = await mkdtemp(join(tmpdir(), "spi-import-corpus-"));
afterAll(() => rm(root, { recursive: true, force: true }));

interface Expected {
  exitCode: number;
  output: string[];
  absent?: string[];
  files?: Record<string, string[]>;
  /** Options besides the feed, --data and --now (default: --time-zone UTC). */
  args?: string[];
  /** `build` of the written folder exits 0: the feed builds as imported. */
  builds?: boolean;
  /** What built documents (paths below out/) must contain. */
  built?: Record<string, string[]>;
}

const NOW = "2026-11-23T08:00:00Z";

const cases = (await readdir(CORPUS, { withFileTypes: true }))
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("importing the corpus of real-feed cases", () => {
  it("has the cases the issue names", () => {
    expect(cases).toEqual(
      expect.arrayContaining([
        ...["truncated-pi", "truncated-si", "miscased-end-tag", "html-entity", "doctype"],
        ...["latin1", "epg1", "vbr-streams", "duplicated-fm", "several-sis"],
        ...["per-service-hosts", "no-programmes", "no-si", "real-feed-values", "broadcast-bearers"],
      ]),
    );
  });

  it.each(cases)("%s", async (name) => {
    const expected = JSON.parse(
      await readFile(join(CORPUS, name, "expected.json"), "utf8"),
    ) as Expected;
    const feed = join(CORPUS, name, "feed");
    const data = join(root, name);
    const args = expected.args ?? ["--time-zone", "UTC"];
    const run = await runInProcess(["import", feed, ...args, "--data", data, "--now", NOW], root);
    const output = `${run.stdout}${run.stderr}`.replaceAll(feed, "<feed>");
    for (const line of expected.output) expect(output).toContain(line);
    for (const line of expected.absent ?? []) expect(output).not.toContain(line);
    expect(output).not.toMatch(/\n\s+at /);
    expect(run.exitCode).toBe(expected.exitCode);
    if (expected.exitCode === 3) {
      expect(await readdir(data).catch(() => [])).toEqual([]);
    } else {
      const validated = await runInProcess(["validate", "--data", data, "--now", NOW], root);
      expect(validated.exitCode, validated.stdout).toBe(run.exitCode);
    }
    if (expected.builds) {
      const out = join(root, `${name}-out`);
      const built = await runInProcess(
        ["build", "--data", data, "--out", out, "--now", NOW, "--keys-at-edge"],
        root,
      );
      expect(built.exitCode, `${built.stdout}${built.stderr}`).toBe(0);
      for (const [file, contents] of Object.entries(expected.built ?? {})) {
        const text = await readFile(join(out, file), "utf8");
        for (const content of contents) expect(text, file).toContain(content);
      }
    }
    for (const [file, contents] of Object.entries(expected.files ?? {})) {
      const text = await readFile(join(data, file), "utf8");
      for (const content of contents) expect(text, file).toContain(content);
    }
  });
});
