import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { previewPage } from "../../src/serve/previewPage.js";
import { type PreviewServer, startPreviewServer } from "../../src/serve/previewServer.js";
import { type SiteWatcher, startSiteWatcher } from "../../src/serve/siteWatcher.js";
import { OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";

const BERN_PI = "radiodns/spi/3.1/id/rdns.aareradio.example/bern/20261123_PI.xml";

let dir: string;
let watcher: SiteWatcher;
let preview: PreviewServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "spi-preview-routes-"));
  await cp(DATA_DIR, join(dir, "data"), { recursive: true });
  watcher = await startSiteWatcher({
    dataDir: join(dir, "data"),
    outDir: join(dir, "out"),
    fixedNow: Date.parse(BUILD_NOW),
    keys: {},
    devKey: "demo-aare-radio-0123456789",
    log: () => {},
  });
  preview = await startPreviewServer({
    outDir: join(dir, "out"),
    port: 0,
    host: "127.0.0.1",
    now: Date.parse(BUILD_NOW),
    routes: previewPage(watcher),
  });
});

afterAll(async () => {
  await preview.close();
  await watcher.close();
});

async function listFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

describe("the preview page's routes", () => {
  it("serve the page at / and its data under /_preview/, and nothing of it is written to out/", async () => {
    const page = await fetch(`${preview.origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('<script type="module" src="/_preview/epg.js">');
    const { site, state } = (await (
      await fetch(`${preview.origin}/_preview/site.json`)
    ).json()) as {
      site: { today: string; devKey: string };
      state: { ok: boolean };
    };
    expect([site.today, site.devKey, state.ok]).toEqual([
      "2026-11-23",
      "demo-aare-radio-0123456789",
      true,
    ]);
    expect((await fetch(`${preview.origin}/_preview/day/2026-11-30.json`)).status).toBe(200);
    expect((await fetch(`${preview.origin}/_preview/day/2026-12-01.json`)).status).toBe(404);
    expect((await fetch(`${preview.origin}/`, { method: "POST" })).status).toBe(405);
    const files = await listFiles(join(dir, "out"));
    expect(files.filter((name) => /\.(html|css)$|^epg/.test(name))).toEqual([]);
  });

  it("answer only at localhost or an address, so no page elsewhere reads the key by DNS rebinding", async () => {
    const { port } = new URL(preview.origin);
    const statusFor = (host: string, path: string) =>
      new Promise<number>((done, fail) => {
        const req = request({ host: "127.0.0.1", port, path, headers: { host } }, (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        });
        req.on("error", fail);
        req.end();
      });
    for (const path of ["/", "/_preview/site.json", "/_preview/day/2026-11-23.json"]) {
      for (const host of [
        "attacker.example",
        `rebound.example:${port}`,
        "127.0.0.1.nip.io",
        "localhost.example",
      ]) {
        expect(await statusFor(host, path), `${host} ${path}`).toBe(403);
      }
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, "[::1]", "app.localhost"]) {
        expect(await statusFor(host, path), `${host} ${path}`).toBe(200);
      }
    }
    // The API itself answers any name, as at the edge: its keyed documents need the key.
    expect(await statusFor("attacker.example", `/${OPEN_SI_PATH}`)).toBe(200);
  });

  it("leave every API path to the edge rules", async () => {
    expect((await fetch(`${preview.origin}/${OPEN_SI_PATH}`)).status).toBe(200);
    expect((await fetch(`${preview.origin}/${BERN_PI}`)).status).toBe(401);
    expect((await fetch(`${preview.origin}/_keyed/${OPEN_SI_PATH}`)).status).toBe(404);
    expect((await fetch(`${preview.origin}/index.html`)).status).toBe(404);
  });

  it("announce every build on the event stream", async () => {
    const controller = new AbortController();
    const response = await fetch(`${preview.origin}/_preview/events`, {
      signal: controller.signal,
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    const nextEvent = async () => {
      while (!text.includes("\n\n")) text += decoder.decode((await reader.read()).value);
      const [event = "", ...rest] = text.split("\n\n");
      text = rest.join("\n\n");
      return JSON.parse(event.replace(/^data: /, "")) as { generation: number; building: boolean };
    };
    const first = await nextEvent();
    const schedule = join(dir, "data/schedules/bern.yaml");
    await writeFile(schedule, await readFile(schedule, "utf8"));
    let event = await nextEvent();
    while (event.building || event.generation === first.generation) event = await nextEvent();
    expect(event.generation).toBe(first.generation + 1);
    controller.abort();
  });

  it("hold an API request while a build runs and answer it from the finished build", async () => {
    const building = new Promise<void>((done) => {
      const stop = watcher.subscribe((state) => {
        if (state.building) {
          stop();
          done();
        }
      });
    });
    const schedule = join(dir, "data/schedules/bern.yaml");
    const original = await readFile(schedule, "utf8");
    await writeFile(
      schedule,
      original.replace(
        '      - { start: "12:00", show: lunchtime }\n',
        '      - { start: "12:00", end: "12:45", show: lunchtime }\n',
      ),
    );
    await building;
    const answer = await fetch(`${preview.origin}/${BERN_PI}`, {
      headers: { authorization: "ClientIdentifier demo-aare-radio-0123456789" },
    });
    expect(watcher.state().building).toBe(false);
    expect(await answer.text()).toContain('duration="PT45M"');
  });
});
