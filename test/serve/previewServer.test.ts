import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/buildSite.js";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../../src/publish/siteLayout.js";
import { startAssetServer } from "../../src/serve/assetServer.js";
import { type PreviewServer, startPreviewServer } from "../../src/serve/previewServer.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";

const FIRST_KEY = "preview-key-first-0001";
const SECOND_KEY = "preview-key-second-002";
const auth = (key: string) => ({ authorization: `ClientIdentifier ${key}` });

let outDir: string;
let preview: PreviewServer;

async function build(keys: string) {
  await buildSite({
    dataDir: DATA_DIR,
    outDir,
    now: Date.parse(BUILD_NOW),
    keys: { keysList: keys },
  });
}

/** One request written by hand, for request lines and headers a client library would not send. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-preview-"));
  await build(FIRST_KEY);
  preview = await startPreviewServer({
    outDir,
    port: 0,
    host: "127.0.0.1",
    now: Date.parse(BUILD_NOW),
  });
});

afterAll(async () => {
  await preview.close();
});

describe("the preview server", () => {
  it("listens on 127.0.0.1 on the port it was given (0: a free one)", () => {
    expect(preview.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("runs the rebuilt out/_worker.js without a restart", async () => {
    const si = `${preview.origin}/${OPEN_SI_PATH}`;
    expect((await fetch(si, { headers: auth(FIRST_KEY) })).status).toBe(200);
    expect((await fetch(si, { headers: auth(SECOND_KEY) })).status).toBe(403);
    await build(SECOND_KEY);
    expect((await fetch(si, { headers: auth(FIRST_KEY) })).status).toBe(403);
    expect((await fetch(si, { headers: auth(SECOND_KEY) })).status).toBe(200);
    await build(FIRST_KEY);
  });

  it("answers absolute-form targets, odd Host headers and methods Fetch refuses by the rules, without crashing", async () => {
    const port = Number(new URL(preview.origin).port);
    const absolute = await rawRequest(
      port,
      `GET http://127.0.0.1:${port}/${KEYED_SI_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 404 /);
    expect(absolute).toContain('<error status="404" code="not-found">');
    const oddHost = await rawRequest(
      port,
      `GET /${OPEN_SI_PATH} HTTP/1.1\r\nHost: a b@c\r\nConnection: close\r\n\r\n`,
    );
    expect(oddHost).toMatch(/^HTTP\/1\.1 200 /);
    const trace = await rawRequest(
      port,
      `TRACE /${OPEN_SI_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
    );
    expect(trace).toMatch(/^HTTP\/1\.1 405 /);
    expect(trace.toLowerCase()).toContain("allow: get, head");
    expect((await fetch(`${preview.origin}/${OPEN_SI_PATH}`)).status).toBe(200);
  });

  it("treats a non-loopback Host like a public host: a key over http gets 400", async () => {
    const port = Number(new URL(preview.origin).port);
    const response = await rawRequest(
      port,
      `GET /${OPEN_SI_PATH} HTTP/1.1\r\nHost: spi.example\r\nAuthorization: ClientIdentifier ${FIRST_KEY}\r\nConnection: close\r\n\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 400 /);
    expect(response).toContain('code="https-required"');
  });

  it("refuses to start without a built worker, naming the file", async () => {
    const empty = await mkdtemp(join(tmpdir(), "spi-preview-empty-"));
    await expect(startPreviewServer({ outDir: empty, port: 0, host: "127.0.0.1" })).rejects.toThrow(
      /_worker\.js does not exist: run `spi-static build` first/,
    );
  });

  it("can take the digests from API_KEY_SHA256 like a deployment", async () => {
    const other = await startPreviewServer({
      outDir,
      port: 0,
      host: "127.0.0.1",
      apiKeySha256: digestOfKey(SECOND_KEY),
    });
    try {
      const si = `${other.origin}/${OPEN_SI_PATH}`;
      expect((await fetch(si, { headers: auth(SECOND_KEY) })).status).toBe(200);
      expect((await fetch(si, { headers: auth(FIRST_KEY) })).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});

describe("the asset server behind the rules", () => {
  it("serves files only to requests with its token, so the keyed SI stays behind the rules", async () => {
    const assets = await startAssetServer(outDir);
    try {
      const direct = await fetch(`${assets.origin}/${KEYED_SI_PATH}`);
      expect(direct.status).toBe(404);
      expect(await direct.text()).toBe("");
      const viaBinding = await assets.assets.fetch(new Request(`http://any.host/${KEYED_SI_PATH}`));
      expect(viaBinding.status).toBe(200);
      expect(await viaBinding.text()).toContain("<serviceInformation");
    } finally {
      await assets.close();
    }
  });
});
