import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { importToDataFolder } from "../../src/import/importToDataFolder.js";
import { type PreviewServer, startPreviewServer } from "../../src/serve/previewServer.js";
import { runInProcess } from "../cli/runInProcess.js";
import { expectSameLogos } from "./siteLogos.js";

const EXAMPLE = new URL("../../data", import.meta.url).pathname;
const NOW = Date.parse("2026-11-23T08:00:00Z");
const KEY = "import-live-key-0000000001";
const SCHEDULES = ["bern", "klassik", "lounge", "news", "pop"];

let work: string;
let server: PreviewServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "spi-import-live-"));
  await buildSite({
    dataDir: EXAMPLE,
    outDir: join(work, "out"),
    now: NOW,
    keys: { keysList: KEY },
  });
  server = await startPreviewServer({
    outDir: join(work, "out"),
    port: 0,
    host: "127.0.0.1",
    now: NOW,
  });
});

afterAll(async () => {
  await server?.close();
});

/** A data file without its first comment lines, which name where it was imported from. */
async function body(path: string): Promise<string> {
  return (await readFile(path, "utf8")).replace(/^(#.*\n)+/, "");
}

describe("importing from a live SPI API (spi-static serve)", () => {
  it("fetches the keyed SI and the window's PI, and writes what importing the files writes", async () => {
    const live = await importToDataFolder({
      from: { api: { baseUrl: server.origin, key: KEY, timeoutMs: 15_000 } },
      dataDir: join(work, "live"),
      timeZone: "Europe/Zurich",
      now: NOW,
      force: false,
    });
    await importToDataFolder({
      from: { files: [join(work, "out")] },
      dataDir: join(work, "files"),
      timeZone: "Europe/Zurich",
      now: NOW,
      force: false,
    });
    expect(live.problems.filter((p) => p.severity === "error")).toEqual([]);
    // The notes: the site's host, which only its logos' URLs tell (it becomes discovery.host),
    // and that its logos stay URLs there without --download-logos.
    expect(live.notes.map((n) => n.message)).toEqual([
      "the logos are spi-static's own, served from spi.aareradio.example: discovery.host (where the site is served) is set to it",
      expect.stringMatching(/^the logos stay URLs on spi\.aareradio\.example, .* answer 404 /),
    ]);
    expect(live.services).toBe(5);
    for (const path of [
      "provider.yaml",
      ...SCHEDULES.flatMap((id) => [`services/${id}.yaml`, `schedules/${id}.yaml`]),
    ]) {
      expect(await body(join(work, "live", path)), path).toBe(
        await body(join(work, "files", path)),
      );
    }
    // The keyed SI was fetched: the streams are there.
    expect(await readFile(join(work, "live/services/news.yaml"), "utf8")).toContain("streams:");
  });

  it("with --download-logos, fetches the site's logos from the API it imports, and the rebuild publishes them", async () => {
    const run = await runInProcess(
      [
        ...["import", server.origin, "--time-zone", "Europe/Zurich", "--data", "with-logos"],
        ...["--key", KEY, "--now", "2026-11-23T08:00:00Z", "--download-logos"],
      ],
      work,
    );
    expect(run.exitCode, run.stdout).toBe(0);
    expect(run.stdout).not.toContain("logos kept as URLs");
    // spi.aareradio.example is not asked (nor could be): the logos come from the API imported.
    const rebuilt = join(work, "with-logos-out");
    await buildSite({
      dataDir: join(work, "with-logos"),
      outDir: rebuilt,
      now: NOW,
      keys: { keysList: KEY },
    });
    await expectSameLogos(join(work, "out"), rebuilt);
  });

  it("stops with exit 3 when PI needs a key and none is given, writing nothing", async () => {
    const run = await runInProcess(
      ["import", server.origin, "--time-zone", "Europe/Zurich", "--data", "nokey"],
      work,
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toMatch(/_PI\.xml: 401: PI needs a valid key/);
    await expect(readFile(join(work, "nokey/provider.yaml"))).rejects.toThrow(/ENOENT/);
  });

  it("takes the key from a keys file and prints the result as JSON", async () => {
    await writeFile(join(work, "keys.txt"), `# the API's key\n${KEY}\n`);
    const run = await runInProcess(
      [
        ...["import", server.origin, "--time-zone", "Europe/Zurich", "--data", "keyed"],
        ...["--keys-file", "keys.txt", "--now", "2026-11-23T08:00:00Z", "--json"],
      ],
      work,
    );
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, services: 5 });
    expect(JSON.parse(run.stdout).notes).toHaveLength(2);
  });
});
