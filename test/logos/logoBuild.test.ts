import { cp, mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { edgeSiteOf } from "../../src/edge/edgeFiles.js";
import { createEdgeWorker } from "../../src/edge/edgeRules.js";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";
import { imageSizeOf } from "../../src/logos/imageSize.js";
import { folderAssets } from "../../src/serve/folderAssets.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { runCli } from "../cli/runCli.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-logo-build-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" rx="2" fill="#0b3c5d"/><circle cx="5" cy="5" r="3" fill="#fff"/></svg>\n`;
const MONDAY = "2026-11-23T08:00:00Z";
const TUESDAY = "2026-11-24T08:00:00Z";
const WEDNESDAY = "2026-11-25T08:00:00Z";
const THURSDAY = "2026-11-26T08:00:00Z";

/** The minimal data folder, its provider's and service's logos made from one SVG. */
async function dataFolder(name: string): Promise<string> {
  const dir = join(root, name);
  await cp("test/fixtures/minimal", dir, { recursive: true });
  for (const file of ["provider.yaml", "services/one.yaml"]) {
    const text = await readFile(join(dir, file), "utf8");
    await writeFile(
      join(dir, file),
      text.replace(/^logos:\n( {2}- .*\n)+/m, "logo: logos/one.svg\n"),
    );
  }
  await mkdir(join(dir, "logos"));
  await writeFile(join(dir, "logos/one.svg"), SVG);
  return dir;
}

async function build(dataDir: string, outDir: string, now: string, ...more: string[]) {
  const args = ["build", "--data", dataDir, "--out", outDir, "--now", now, ...more];
  const result = await runCli(args, root, { SPI_STATIC_DEBUG: "logos" });
  const debug = result.stderr
    .split("\n")
    .filter((line) => line.includes("debug logos"))
    .map((line) => line.replace(/\(\d+ ms\)/, "(N ms)"));
  return { ...result, debug };
}

/** A whole, valid 1-bit greyscale PNG of this size: a few KB however large (its rows are zeros). */
function wholePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth; colour type 0 (greyscale), no interlace
  const rows = Buffer.alloc(height * (1 + Math.ceil(width / 8)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The JPEG with its frame header claiming this size: its data stays what it was. */
function withJpegSize(jpeg: Buffer, width: number, height: number): Buffer {
  const lying = Buffer.from(jpeg);
  for (let at = 2; at < lying.length; at += 2 + lying.readUInt16BE(at + 2)) {
    if ((lying[at + 1] as number) >= 0xc0 && (lying[at + 1] as number) <= 0xc2) {
      lying.writeUInt16BE(height, at + 5);
      lying.writeUInt16BE(width, at + 7);
      break;
    }
  }
  expect(imageSizeOf(lying)).toEqual({ format: "jpeg", width, height });
  return lying;
}

/** Every file under `dir`, by its path relative to it. */
async function filesUnder(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(path.slice(dir.length + 1), await readFile(path));
  }
  return files;
}

describe("logos made by the build", () => {
  const dataDir = dataFolder("data");

  it("writes every size under its content-hashed name, as SI names it, the same bytes in two builds", async () => {
    const first = join(root, "out-first");
    const second = join(root, "out-second");
    const built = await build(await dataDir, first, MONDAY);
    expect(built.code, built.stderr).toBe(0);
    expect(built.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 10 made, 0 already published under their name (N ms)",
    ]);
    expect((await build(await dataDir, second, MONDAY)).code).toBe(0);

    const logos = [...(await filesUnder(first))].filter(([path]) => path.startsWith("logos/"));
    expect(logos.map(([path]) => path.replace(/-[0-9a-f]{16}\.png$/, "")).sort()).toEqual([
      "logos/provider/112x32",
      "logos/provider/128x128",
      "logos/provider/320x240",
      "logos/provider/32x32",
      "logos/provider/600x600",
      "logos/services/one/112x32",
      "logos/services/one/128x128",
      "logos/services/one/320x240",
      "logos/services/one/32x32",
      "logos/services/one/600x600",
    ]);
    const secondFiles = await filesUnder(second);
    const si = (await readFile(join(first, "radiodns/spi/3.1/SI.xml"))).toString();
    for (const [path, bytes] of logos) {
      const [width, height] = (/(\d+)x(\d+)-/.exec(path) ?? []).slice(1).map(Number);
      const metadata = await sharp(bytes).metadata();
      // PNG, RGBA (the SVG's rounded corners stay see-through), of exactly its size.
      expect([metadata.format, metadata.width, metadata.height, metadata.channels]).toEqual([
        "png",
        width,
        height,
        4,
      ]);
      expect(secondFiles.get(path)?.equals(bytes), `${path} differs between two builds`).toBe(true);
      expect(si).toContain(`url="https://rdns.test.example/${path}"`);
    }
    const documents = ["radiodns/spi/3.1/SI.xml", "_keyed/radiodns/spi/3.1/SI.xml"];
    const violations = await validateSpiDocuments(
      await Promise.all(
        documents.map(async (path) => ({
          name: path,
          xml: await readFile(join(first, path), "utf8"),
        })),
      ),
    );
    expect(violations).toEqual([]);
  });

  it("makes no logo in a nightly build when no source changed, and only the changed ones after", async () => {
    const outDir = join(root, "out-nightly");
    const dir = await dataDir;
    expect((await build(dir, outDir, MONDAY)).code).toBe(0);
    const monday = await filesUnder(join(outDir, "logos"));
    const tuesday = await build(dir, outDir, TUESDAY);
    expect(tuesday.code, tuesday.stderr).toBe(0);
    expect(tuesday.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 0 made, 10 already published under their name (N ms)",
    ]);
    expect(await filesUnder(join(outDir, "logos"))).toEqual(monday);
    // --force trusts no published logo: every one is made again, to the same bytes.
    const forced = await build(dir, outDir, TUESDAY, "--force");
    expect(forced.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 10 made, 0 already published under their name (N ms)",
    ]);
    expect(await filesUnder(join(outDir, "logos"))).toEqual(monday);

    // The service gets a source of its own: its five logos are made, under new names; the old stay
    // published (a radio may hold the SI that names them) until the grace period has passed.
    await writeFile(join(dir, "logos/two.svg"), SVG.replace("#0b3c5d", "#c8102e"));
    const service = join(dir, "services/one.yaml");
    await writeFile(
      service,
      (await readFile(service, "utf8")).replace("logos/one.svg", "logos/two.svg"),
    );
    const changed = await build(dir, outDir, TUESDAY);
    expect(changed.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 5 made, 5 already published under their name; 5 superseded kept for 48 h (N ms)",
    ]);
    const after = await filesUnder(join(outDir, "logos"));
    const made = [...after.keys()].filter((path) => !monday.has(path));
    expect(made.map((path) => path.replace(/-[0-9a-f]{16}\.png$/, "")).sort()).toEqual(
      ["112x32", "128x128", "320x240", "32x32", "600x600"].map((size) => `services/one/${size}`),
    );
    const old = [...monday.keys()].filter((path) => path.startsWith("services/one/"));
    for (const path of old) expect(after.get(path)).toEqual(monday.get(path));
    const si = await readFile(join(outDir, "radiodns/spi/3.1/SI.xml"), "utf8");
    for (const path of made) expect(si).toContain(`/logos/${path}"`);
    for (const path of old) expect(si).not.toContain(`/logos/${path}"`);
    const { broadcaster } = await loadBroadcaster(dir);
    if (!broadcaster) throw new Error("the data folder does not load");
    const worker = createEdgeWorker(edgeSiteOf(broadcaster, []));
    for (const path of [...old, ...made]) {
      const response = await worker.fetch(new Request(`https://rdns.test.example/logos/${path}`), {
        ASSETS: folderAssets(outDir),
      });
      expect([path, response.status]).toEqual([path, 200]);
    }

    // A later build within the grace period keeps them, and says so. The period is in the state,
    // not in file times: old times (a restore, a copy) change nothing, nor does --force.
    const longAgo = new Date(Date.parse(MONDAY) - 7 * 24 * 3_600_000);
    for (const path of old) await utimes(join(outDir, "logos", path), longAgo, longAgo);
    const wednesday = await build(dir, outDir, WEDNESDAY, "--force");
    expect(wednesday.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 10 made, 0 already published under their name; 5 superseded kept for 48 h (N ms)",
    ]);
    expect(await filesUnder(join(outDir, "logos"))).toEqual(after);

    // 48 h after the build that first left them out (by the build's clock): pruned, the rest untouched.
    const thursday = await build(dir, outDir, THURSDAY);
    expect(thursday.code, thursday.stderr).toBe(0);
    expect(thursday.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 0 made, 10 already published under their name (N ms)",
    ]);
    const pruned = await filesUnder(join(outDir, "logos"));
    expect([...pruned.keys()].sort()).toEqual(
      [...after.keys()].filter((p) => !old.includes(p)).sort(),
    );
  });

  it("drops a superseded logo whose file is no longer the one published, rather than keep it damaged", async () => {
    const dir = await dataFolder("superseded-damaged");
    const outDir = join(root, "out-superseded-damaged");
    expect((await build(dir, outDir, MONDAY)).code).toBe(0);
    const monday = await filesUnder(join(outDir, "logos"));
    await writeFile(join(dir, "logos/one.svg"), SVG.replace("#0b3c5d", "#c8102e"));
    const tuesday = await build(dir, outDir, TUESDAY);
    expect(tuesday.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 10 made, 0 already published under their name; 10 superseded kept for 48 h (N ms)",
    ]);
    const [damaged = "", ...others] = [...monday.keys()];
    const bytes = Buffer.from(monday.get(damaged) ?? "");
    const middle = bytes.length >> 1;
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    await writeFile(join(outDir, "logos", damaged), bytes);
    const wednesday = await build(dir, outDir, WEDNESDAY);
    expect(wednesday.debug).toEqual([
      `spi-static debug logos: logos/${damaged}: superseded, and not as published: no longer kept`,
      "spi-static debug logos: 10 logos from sources: 0 made, 10 already published under their name; 9 superseded kept for 48 h (N ms)",
    ]);
    const after = await filesUnder(join(outDir, "logos"));
    expect(after.has(damaged)).toBe(false);
    for (const path of others) expect(after.get(path)).toEqual(monday.get(path));
  });

  it("writes nothing when a source cannot make its logos", async () => {
    const dir = join(root, "broken");
    await cp(await dataDir, dir, { recursive: true });
    await writeFile(join(dir, "logos/one.svg"), "<svg");
    const outDir = join(root, "out-broken");
    const failed = await build(dir, outDir, MONDAY);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(
      /provider\.yaml:\d+:\d+ logo: .*one\.svg is not an image that can be decoded/,
    );
    expect(failed.stderr).toContain("nothing was written");
    expect(await readdir(outDir).catch(() => [])).toEqual([]);
  });

  // A site built on Monday, which each refused source must leave as it was.
  const refusedOut = join(root, "out-refused");
  let publishedMonday: Promise<Map<string, Buffer>> | undefined;
  const published = () => {
    publishedMonday ??= dataFolder("refused-base").then(async (dir) => {
      expect((await build(dir, refusedOut, MONDAY)).code).toBe(0);
      return filesUnder(refusedOut);
    });
    return publishedMonday;
  };
  const jpeg = sharp({
    create: { width: 600, height: 600, channels: 3, background: "#0a0" },
  })
    .jpeg()
    .toBuffer();
  const nested = (levels: number, fan: number) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><defs><rect id="a0" width="1" height="1"/>${Array.from(
      { length: levels },
      (_, i) => `<g id="a${i + 1}">${`<use href="#a${i}"/>`.repeat(fan)}</g>`,
    ).join("")}</defs><use href="#a${levels}"/></svg>`;
  const cases: [string, Promise<Buffer> | Buffer | string, string][] = [
    [
      "big.png",
      wholePng(16000, 16000),
      "is 16000x16000 pixels (256 megapixels): a logo source may have at most 40 megapixels",
    ],
    [
      "claims-16000.jpg",
      jpeg.then((bytes) => withJpegSize(bytes, 16000, 16000)),
      "is 16000x16000 pixels (256 megapixels): a logo source may have at most 40 megapixels",
    ],
    [
      "claims-2000.jpg",
      jpeg.then((bytes) => withJpegSize(bytes, 2000, 2000)),
      "is not an image that can be decoded (PNG, JPEG or SVG): VipsJpeg: Corrupt JPEG data: premature end of data segment",
    ],
    [
      "bomb.svg",
      nested(5, 12),
      "draws 1135162 elements once its <use> references are followed: a logo source may draw at most 10000",
    ],
    [
      "thin.svg",
      `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="100000"><rect width="1" height="100000"/></svg>`,
      "is an SVG of 1x100000, drawn at 100x10000000 pixels (1000 megapixels) to make the 600x600 logo",
    ],
  ];
  it.for(cases)(
    "refuses, in validate and build alike, at the field, leaving out/ as it was: %s",
    { timeout: 120_000 },
    async ([name, bytes, problem]) => {
      const before = await published();
      // Its own copy: the other tests change the shared data folder's source.
      const dir = await dataFolder(`refused-${name}`);
      await writeFile(join(dir, "logos", name), await bytes);
      const yaml = join(dir, "services/one.yaml");
      const text = await readFile(yaml, "utf8");
      await writeFile(
        yaml,
        text.replace("logo: logos/one.svg", `logo: { source: logos/${name}, background: "#fff" }`),
      );
      const [validated, built] = await Promise.all([
        runCli(["validate", "--data", dir, "--now", TUESDAY], root),
        build(dir, refusedOut, TUESDAY),
      ]);
      const expected = `services/one.yaml:5:17 logo.source: refused-${name}/logos/${name} ${problem}`;
      const problemLine = (output: string) =>
        output.split("\n").find((l) => l.includes(`logo.source: refused-${name}/`));
      expect(problemLine(validated.stdout)).toContain(expected);
      expect(problemLine(built.stderr)).toBe(problemLine(validated.stdout));
      expect([validated.code, built.code]).toEqual([1, 1]);
      expect(await filesUnder(refusedOut)).toEqual(before);
    },
  );

  it("are served open by the edge rules, cached for good, with or without a key", async () => {
    const outDir = join(root, "out-edge");
    expect((await build(await dataDir, outDir, MONDAY)).code).toBe(0);
    const { broadcaster } = await loadBroadcaster(await dataDir);
    if (!broadcaster) throw new Error("the data folder does not load");
    const worker = createEdgeWorker(edgeSiteOf(broadcaster, []));
    const env = { ASSETS: folderAssets(outDir) };
    const [path] = [...(await filesUnder(outDir)).keys()].filter((p) =>
      p.startsWith("logos/services/one/32x32-"),
    );
    const keys: Record<string, string>[] = [
      {},
      { Authorization: "ClientIdentifier not-a-valid-key" },
    ];
    for (const headers of keys) {
      const response = await worker.fetch(
        new Request(`https://rdns.test.example/${path}`, { headers }),
        env,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("vary")).toBeNull();
      expect((await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width).toBe(32);
    }
    const unknown = path?.replace(/-[0-9a-f]{16}\./, "-0000000000000000.");
    expect(
      (await worker.fetch(new Request(`https://rdns.test.example/${unknown}`), env)).status,
    ).toBe(404);
  });
});

describe("JPEG logos (logo.jpeg)", () => {
  async function withServiceLogo(name: string, logo: string): Promise<string> {
    const dir = join(root, name);
    await cp(await dataFolder(`${name}-source`), dir, { recursive: true });
    const service = join(dir, "services/one.yaml");
    const text = await readFile(service, "utf8");
    await writeFile(service, text.replace("logo: logos/one.svg\n", `logo: ${logo}\n`));
    return dir;
  }

  it("makes the 320x240 and 600x600 as JPEG, named by SI as image/jpeg, and takes them as published the next night", async () => {
    const dir = await withServiceLogo(
      "jpeg",
      '{ source: logos/one.svg, background: "#ffffff", jpeg: true }',
    );
    const outDir = join(root, "out-jpeg");
    const built = await build(dir, outDir, MONDAY);
    expect(built.code, built.stderr).toBe(0);
    const logos = await filesUnder(join(outDir, "logos/services/one"));
    expect([...logos.keys()].map((p) => p.replace(/-[0-9a-f]{16}\./, ".")).sort()).toEqual([
      "112x32.png",
      "128x128.png",
      "320x240.jpg",
      "32x32.png",
      "600x600.jpg",
    ]);
    const si = await readFile(join(outDir, "radiodns/spi/3.1/SI.xml"), "utf8");
    for (const [path, bytes] of logos) {
      const [width = 0, height = 0] = (/(\d+)x(\d+)-/.exec(path) ?? []).slice(1).map(Number);
      const format = path.endsWith(".jpg") ? "jpeg" : "png";
      expect(imageSizeOf(bytes)).toEqual({ format, width, height });
      expect((await sharp(bytes).metadata()).format).toBe(format);
      expect(si).toContain(
        `/logos/services/one/${path}"${format === "jpeg" ? ' mimeValue="image/jpeg"' : ""}`,
      );
    }
    expect(await validateSpiDocuments([{ name: "SI.xml", xml: si }])).toEqual([]);
    const again = await build(dir, outDir, TUESDAY);
    expect(again.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 0 made, 10 already published under their name (N ms)",
    ]);
    expect(await filesUnder(join(outDir, "logos/services/one"))).toEqual(logos);
  });

  it("refuses JPEG without a background, at the field, writing nothing", async () => {
    const dir = await withServiceLogo(
      "jpeg-no-background",
      "{ source: logos/one.svg, jpeg: true }",
    );
    const outDir = join(root, "out-jpeg-no-background");
    const failed = await build(dir, outDir, MONDAY);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(
      /services\/one\.yaml:\d+:\d+ logo\.jpeg: needs a background \("#rrggbb"\): a JPEG has no transparency/,
    );
    expect(await readdir(outDir).catch(() => [])).toEqual([]);
  });
});

describe("logos of a service --keep-going keeps", () => {
  it("stay published with its SI entry, which names them", async () => {
    const dir = join(root, "keep-going");
    await cp(await dataFolder("keep-going-source"), dir, { recursive: true });
    // A second service, so the build has one to publish when the first breaks.
    const one = await readFile(join(dir, "services/one.yaml"), "utf8");
    await writeFile(join(dir, "services/two.yaml"), one.replace(/^id: one$/m, "id: two"));
    await cp(join(dir, "schedules/one.yaml"), join(dir, "schedules/two.yaml"));
    const outDir = join(root, "out-keep-going");
    expect((await build(dir, outDir, MONDAY)).code).toBe(0);
    const before = await filesUnder(join(outDir, "logos/services/one"));
    const schedule = join(dir, "schedules/one.yaml");
    await writeFile(schedule, `${await readFile(schedule, "utf8")}\nnot: [valid\n`);
    const kept = await runCli(
      ["build", "--data", dir, "--out", outDir, "--now", TUESDAY, "--keep-going"],
      root,
    );
    expect(kept.stderr).toContain("kept");
    expect(await filesUnder(join(outDir, "logos/services/one"))).toEqual(before);
    const si = await readFile(join(outDir, "radiodns/spi/3.1/SI.xml"), "utf8");
    for (const path of before.keys()) expect(si).toContain(`/logos/services/one/${path}"`);
  });

  it("a damaged published logo is made again", async () => {
    const outDir = join(root, "out-damaged");
    const dir = await dataFolder("damaged-source");
    expect((await build(dir, outDir, MONDAY)).code).toBe(0);
    const logos = join(outDir, "logos/services/one");
    const [name = ""] = (await readdir(logos)).filter((n) => n.startsWith("600x600-"));
    const whole = await readFile(join(logos, name));
    await writeFile(join(logos, name), whole.subarray(0, whole.length / 2));
    const next = await build(dir, outDir, TUESDAY);
    expect(next.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 1 made, 9 already published under their name (N ms)",
    ]);
    expect((await readFile(join(logos, name))).equals(whole)).toBe(true);
  });

  it("a published logo with a byte changed inside, still whole and of its size, is found by its digest and made again", async () => {
    const outDir = join(root, "out-flipped");
    const dir = await dataFolder("flipped-source");
    expect((await build(dir, outDir, MONDAY)).code).toBe(0);
    const logos = join(outDir, "logos/services/one");
    const [name = ""] = (await readdir(logos)).filter((n) => n.startsWith("600x600-"));
    const whole = await readFile(join(logos, name));
    const flipped = Buffer.from(whole);
    const middle = Math.floor(flipped.length / 2);
    flipped[middle] = (flipped[middle] ?? 0) ^ 0xff;
    await writeFile(join(logos, name), flipped);
    expect(imageSizeOf(flipped)).toEqual(imageSizeOf(whole));
    const next = await build(dir, outDir, TUESDAY);
    expect(next.debug).toEqual([
      "spi-static debug logos: 10 logos from sources: 1 made, 9 already published under their name (N ms)",
    ]);
    expect((await readFile(join(logos, name))).equals(whole)).toBe(true);
  });
});
