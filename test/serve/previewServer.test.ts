import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import {
  type PreviewServer,
  requestOrigin,
  startPreviewServer,
} from "../../src/serve/previewServer.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";
import {
  makeNamespacePair,
  type NamespacePair,
  SERVER_ADDRESS,
  startInNamespace,
} from "./namespacePair.js";

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

/** A request written by hand and sent from inside a namespace; prints what came back. */
const RAW_CLIENT = `
const [address, port, text] = process.argv.slice(1);
const socket = require("node:net").connect(Number(port), address, () => socket.write(text));
socket.pipe(process.stdout);
socket.on("error", (error) => { console.error(error.message); process.exit(1); });
`;

describe("the loopback exception for keys over http", () => {
  const keyedRequest = (host: string) =>
    `GET /${OPEN_SI_PATH} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ClientIdentifier ${FIRST_KEY}\r\nConnection: close\r\n\r\n`;
  let namespaces: NamespacePair | string = "not made yet";
  beforeAll(async () => {
    namespaces = await makeNamespacePair();
  });
  afterAll(async () => {
    if (typeof namespaces !== "string") await namespaces.remove();
  });

  it("follows the connection's address, not the Host header: a remote client saying Host: localhost gets 400", async (context) => {
    // The preview listens inside a namespace of its own, and the remote client is in another,
    // joined by a veth pair: a real remote connection, with no traffic to this machine's addresses.
    if (typeof namespaces === "string") return context.skip(namespaces);
    const pair = namespaces;
    const port = "8080";
    const serve = await startInNamespace(
      pair.server,
      [
        process.execPath,
        resolve("dist/cli/main.js"),
        "serve",
        "--out",
        outDir,
        "--host",
        "0.0.0.0",
        "--port",
        port,
        "--now",
        BUILD_NOW,
      ],
      "open SI:",
    );
    try {
      const ask = (namespace: string, address: string, text: string) =>
        pair.exec(namespace, [process.execPath, "-e", RAW_CLIENT, address, port, text]);
      for (const host of ["localhost", `127.0.0.1:${port}`, "[::1]", "127.1", "a.localhost"]) {
        const remote = await ask(pair.client, SERVER_ADDRESS, keyedRequest(host));
        expect(remote, host).toMatch(/^HTTP\/1\.1 400 /);
        expect(remote).toContain('code="https-required"');
      }
      const local = await ask(pair.server, "127.0.0.1", keyedRequest("localhost"));
      expect(local).toMatch(/^HTTP\/1\.1 200 /);
      expect(local).toContain('<bearer id="http');
    } finally {
      await serve.stop();
    }
  });

  it("gives a remote client its own address as the origin when its Host looks like loopback", () => {
    const fallback = "http://0.0.0.0:8080";
    expect(requestOrigin("localhost:8080", "192.0.2.7", fallback)).toBe("http://192.0.2.7");
    expect(requestOrigin("[::1]", "2001:db8::7", fallback)).toBe("http://[2001:db8::7]");
    expect(requestOrigin("[::ffff:7f00:1]", "::ffff:192.0.2.7", fallback)).toBe(
      "http://[::ffff:192.0.2.7]",
    );
    expect(requestOrigin(undefined, "192.0.2.7", "http://127.0.0.1:8080")).toBe("http://192.0.2.7");
    expect(requestOrigin("spi.example", "192.0.2.7", fallback)).toBe("http://spi.example");
    expect(requestOrigin("localhost:8080", "127.0.0.1", fallback)).toBe("http://localhost:8080");
    expect(requestOrigin("localhost:8080", "::ffff:127.0.0.1", fallback)).toBe(
      "http://localhost:8080",
    );
    expect(requestOrigin("localhost", "::1", fallback)).toBe("http://localhost");
  });
});
