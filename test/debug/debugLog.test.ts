import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/runCli.js";

const NOW = "2026-11-23T08:00:00Z";
let dataDir: string;
let outDir: string;

/** `spi-static build` of the copied example data with SPI_STATIC_DEBUG set to `topics`. */
async function build(topics: string, now = NOW, more: string[] = []) {
  const args = ["build", "--data", dataDir, "--out", outDir, "--now", now, "--quiet", ...more];
  const result = await runCli(args, process.cwd(), { SPI_STATIC_DEBUG: topics, SPI_API_KEYS: "" });
  expect(result.code).toBe(0);
  return result.stderr;
}

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "spi-debug-"));
  dataDir = join(dir, "data");
  outDir = join(dir, "out");
  await cp(new URL("../../data", import.meta.url).pathname, dataDir, { recursive: true });
});

describe("SPI_STATIC_DEBUG", () => {
  it("says nothing when unset, and only the topics asked for", async () => {
    expect(await build("")).toBe("");
    const stderr = await build("render", "2026-11-24T08:00:00Z");
    expect(stderr).toMatch(/^spi-static debug render: /);
    expect(stderr).not.toMatch(/debug (stamp|load|schedule):/);
  });

  it("says why the up-to-date check rebuilt, or that it did not", async () => {
    expect(await build("stamp")).toMatch(
      /debug stamp: building .*out: another local day: the last build was for 2026-11-24, this one is for 2026-11-23\n/,
    );
    expect(await build("stamp")).toMatch(
      /debug stamp: .*out is up to date: \d+ files as the last build left them\n/,
    );
    await writeFile(join(dataDir, "services/news.yaml"), "\n# an edit\n", { flag: "a" });
    expect(await build("stamp")).toMatch(
      /debug stamp: building .*out: data file changed: services\/news\.yaml \(fingerprint [0-9a-f]{12}\)\n/,
    );
  });

  it("says what the render stage kept for the build and what each service's layout held", async () => {
    const service = join(dataDir, "services/news.yaml");
    await writeFile(
      service,
      (await readFile(service, "utf8")).replace("long: Aare", "long: The Aare"),
    );
    const stderr = await build("render,schedule,publish");
    const [, documents = 0, planned = 0, rendered = 0, forEpisodes = 0, reused = 0] =
      /debug render: (\d+) of (\d+) PI documents rendered; (\d+) programme elements rendered \((\d+) of them for episodes\), (\d+) airings filled in/
        .exec(stderr)
        ?.map(Number) ?? [];
    // Only the edited service's documents, the SI and the edge files: the others' inputs are as
    // the last build recorded.
    expect([documents, planned]).toEqual([17, 5 * 17]);
    expect(rendered).toBeGreaterThan(0);
    // The example's episode files (data/episodes/news/) give five airings their own element.
    expect(forEpisodes).toBe(5);
    expect(reused).toBeGreaterThan(rendered);
    expect(stderr).toMatch(
      /debug schedule: news: .*episodes: 5 dated within them, 0 later \(checked, problems are warnings\), 0 earlier/,
    );
    // 17 PI, two SI and the three edge files (worker, routes, .assetsignore).
    expect(stderr).toMatch(
      /debug publish: 98 documents reused \(inputs and file as recorded\), 22 rendered: \d+ written/,
    );
    expect(stderr).toMatch(
      /debug schedule: news: \d+ programmes laid out for 2026-11-14 to 2026-12-02/,
    );
  });

  it("says why each document is rendered (plan)", async () => {
    await build("");
    await writeFile(join(dataDir, "services/news.yaml"), "\n# a comment is an input too\n", {
      flag: "a",
    });
    const stderr = await build("plan");
    // Then one line for the whole build: how many were reused, and how many rendered for what.
    // 98: the example's logos (issue 27) are documents too, reused like the others.
    expect(stderr).toMatch(/debug plan: 98 reused; rendered: 19: its inputs changed\n$/);
    const all = stderr.trim().split("\n").slice(0, -1);
    // First each service's check: reused as recorded, or laid out and why, naming the file.
    const checks = all.filter((line) => /^spi-static debug plan: \w+: (check|laid out)/.test(line));
    expect(checks).toEqual(
      ["bern", "klassik", "lounge", "news", "pop"].map(
        (id) =>
          `spi-static debug plan: ${id}: ${id === "news" ? "laid out in full: its inputs changed: data file changed: services/news.yaml" : "check reused as recorded"}`,
      ),
    );
    const lines = all.filter((line) => line.includes(": rendered: "));
    const reasons = new Map<string, string>();
    for (const line of lines) {
      const [, path = "", why = ""] =
        /^spi-static debug plan: (\S+): rendered: (.+)$/.exec(line) ?? [];
      reasons.set(path, why);
    }
    expect(reasons.size).toBe(lines.length);
    // The edited service's 17 PI documents and both SI: their inputs changed; nothing else.
    expect([...reasons.keys()].filter((path) => path.includes("/news/"))).toHaveLength(17);
    expect(reasons.size).toBe(17 + 2);
    expect(new Set(reasons.values())).toEqual(
      new Set(["its inputs changed: data file changed: services/news.yaml"]),
    );
    // The reuse check: one reused document of each other service rendered again and compared.
    for (const id of ["bern", "klassik", "lounge", "pop"]) {
      expect(stderr).toMatch(
        new RegExp(`debug plan: ${id}: reuse check: renders \\S+_PI\\.xml again and compares it\n`),
      );
    }
    expect(stderr).toMatch(
      /debug plan: reuse check: 4 reused PI documents rendered again, 0 otherwise than published \(\d+ ms\)\n/,
    );
    expect(await build("plan", NOW, ["--force"])).toMatch(
      /debug plan: \S+_PI\.xml: rendered: --force renders every document\n/,
    );
  });

  it("says why the quick YAML reader gave a file to yaml", async () => {
    await writeFile(join(dataDir, "services/tagged.yaml"), "id: !!str tagged\n");
    const result = await runCli(["validate", "--data", dataDir, "--now", NOW], process.cwd(), {
      SPI_STATIC_DEBUG: "all",
    });
    expect(result.stderr).toMatch(
      /debug load: .*services\/tagged\.yaml: read by yaml, not the quick reader: a tagged scalar\n/,
    );
  });
});
