import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { folderAssets } from "../../src/serve/folderAssets.js";

const DOCUMENT = '<?xml version="1.0" encoding="UTF-8"?>\n<serviceInformation/>\n';
let outDir: string;
let outside: string;

const get = (path: string) => folderAssets(outDir).fetch(new Request(`http://assets${path}`));

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-assets-"));
  outside = await mkdtemp(join(tmpdir(), "spi-assets-outside-"));
  await mkdir(join(outDir, "radiodns/spi/3.1"), { recursive: true });
  await writeFile(join(outDir, "radiodns/spi/3.1/SI.xml"), DOCUMENT);
  await writeFile(join(outside, "secret.xml"), "outside");
  await symlink(join(outside, "secret.xml"), join(outDir, "link.xml"));
  execFileSync("mkfifo", [join(outDir, "fifo.xml")]);
});

describe("the preview's asset store", () => {
  it("answers a file with its bytes, exact length, modification time and a content-hash ETag", async () => {
    const response = await get("/radiodns/spi/3.1/SI.xml");
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(DOCUMENT);
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(DOCUMENT)));
    const { mtime } = await stat(join(outDir, "radiodns/spi/3.1/SI.xml"));
    expect(response.headers.get("last-modified")).toBe(mtime.toUTCString());
    expect(response.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it("keeps the ETag when the file is rewritten with the same bytes and changes it with the bytes", async () => {
    const path = "/radiodns/spi/3.1/SI.xml";
    const before = (await get(path)).headers.get("etag");
    await writeFile(join(outDir, path), DOCUMENT);
    expect((await get(path)).headers.get("etag")).toBe(before);
    await writeFile(join(outDir, path), DOCUMENT.replace("/>", "></serviceInformation>"));
    expect((await get(path)).headers.get("etag")).not.toBe(before);
    await writeFile(join(outDir, path), DOCUMENT);
  });

  it("answers 404 for missing files, folders, links, FIFOs (without blocking) and paths leaving the folder", async () => {
    for (const path of [
      "/missing.xml",
      "/radiodns/spi/3.1",
      "/radiodns/spi/3.1/",
      "/link.xml",
      "/fifo.xml",
      "/radiodns/../../etc/passwd",
      "/radiodns/%2e%2e/%2e%2e/etc/passwd",
      "/radiodns%2f..%2f..%2fetc%2fpasswd",
      "//etc/passwd",
      "/radiodns/spi/3.1/SI.xml%00",
      "/%E0%A4%A",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toBe("");
    }
  });
});
