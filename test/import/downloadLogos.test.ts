import {
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { importToDataFolder } from "../../src/import/importToDataFolder.js";
import { runInProcess } from "../cli/runInProcess.js";

const FIXTURES = new URL("../fixtures/import/", import.meta.url).pathname;
const NOW = Date.parse("2016-09-29T12:00:00Z");

const root = await mkdtemp(join(tmpdir(), "spi-import-logos-"));
let server: Server;
let origin: string;
const asked: string[] = [];

/** A loopback logo host: /<W>x<H>.png is a PNG of that size, /missing/... is a 404. */
beforeAll(async () => {
  server = createServer(async (request, response) => {
    asked.push(request.url ?? "");
    const size = /\/(\d+)x(\d+)\.png$/.exec(request.url ?? "");
    if (!size || request.url?.includes("/missing/")) {
      response.writeHead(404).end();
      return;
    }
    const [width, height] = [Number(size[1]), Number(size[2])];
    const png = await sharp({ create: { width, height, channels: 4, background: "#d00" } })
      .png()
      .toBuffer();
    response.writeHead(200, { "content-type": "image/png" }).end(png);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((closed) => server.close(closed));
  await rm(root, { recursive: true, force: true });
});

/** The fixture's SI with its logos on the loopback host (the service's largest one square). */
async function feedWithLogosAt(name: string, prefix = ""): Promise<string> {
  const si = (await readFile(join(FIXTURES, "SI.xml"), "utf8"))
    .replaceAll("http://epg.musicradio.com/", `${origin}/`)
    .replaceAll("http://owdo.thisisglobal.com/", `${origin}/${prefix}`)
    .replace('800x600.png" width="800"', '600x600.png" width="600"');
  const path = join(root, `${name}.xml`);
  await writeFile(path, si);
  return path;
}

/** `feed` and the fixture's PI imported into `dataDir` with --download-logos. */
function importWithLogos(dataDir: string, feed: string) {
  return importToDataFolder({
    from: { files: [feed, join(FIXTURES, "PI_real.xml")] },
    dataDir,
    timeZone: "Europe/London",
    now: NOW,
    force: false,
    downloadLogos: { timeoutMs: 5000 },
  });
}

describe("import --download-logos", () => {
  it("fetches a service's logos into sources: the largest square the source, the others drawn sizes", async () => {
    const dataDir = join(root, "data");
    const result = await importWithLogos(dataDir, await feedWithLogosAt("feed"));
    expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
    const service = parse(await readFile(join(dataDir, "services/london.yaml"), "utf8"));
    // Its 1024x768 logo is no size a source makes: it stays a URL.
    expect(service.logos).toEqual([
      { url: `${origin}/2.0/id/25/logo/1024x768.png`, size: "1024x768" },
    ]);
    expect(service.logo).toEqual({
      source: "logos/services/london/600x600.png",
      sizes: {
        "32x32": "logos/services/london/32x32.png",
        "112x32": "logos/services/london/112x32.png",
        "128x128": "logos/services/london/128x128.png",
        "320x240": "logos/services/london/320x240.png",
      },
    });
    const drawn = await sharp(join(dataDir, "logos/services/london/112x32.png")).metadata();
    expect([drawn.format, drawn.width, drawn.height]).toEqual(["png", 112, 32]);
    expect(result.files).toContain("logos/services/london/600x600.png");
    // The provider has no square logo large enough for 128x128 and 600x600: it keeps its URLs.
    const provider = parse(await readFile(join(dataDir, "provider.yaml"), "utf8"));
    expect(provider.logo).toBeUndefined();
    expect(provider.logos).toHaveLength(2);
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContain(
      "the provider: logos kept as URLs: its largest square logo (32x32) is too small to make 128x128",
    );
    expect(asked.every((path) => !path.includes("epg.musicradio"))).toBe(true);
  });

  it("keeps a service's URLs, with a note, when one of its logos cannot be fetched", async () => {
    const dataDir = join(root, "data-missing");
    const result = await importWithLogos(
      dataDir,
      await feedWithLogosAt("feed-missing", "missing/"),
    );
    const service = parse(await readFile(join(dataDir, "services/london.yaml"), "utf8"));
    expect(service.logo).toBeUndefined();
    expect(service.logos).toHaveLength(6);
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContainEqual(
      expect.stringMatching(
        /^service london: logos kept as URLs: http:\/\/127\.0\.0\.1:\d+\/missing\/.*600x600\.png answered 404$/,
      ),
    );
  });

  it("fetches a service group's logos into logos/groups/<id>/", async () => {
    const dataDir = join(root, "data-groups");
    const feed = await feedWithLogosAt("feed-groups");
    const group =
      '<serviceGroups><serviceGroup id="music"><shortName>Music</shortName><mediaDescription>' +
      `<multimedia url="${origin}/groups/music/600x600.png" mimeValue="image/png" width="600" height="600"/>` +
      "</mediaDescription></serviceGroup></serviceGroups>";
    const si = await readFile(feed, "utf8");
    await writeFile(feed, si.replace("</serviceInformation>", `${group}</serviceInformation>`));
    const result = await importWithLogos(dataDir, feed);
    expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
    const provider = parse(await readFile(join(dataDir, "provider.yaml"), "utf8"));
    expect(provider.serviceGroups.music.logo).toBe("logos/groups/music/600x600.png");
    expect(provider.serviceGroups.music.logos).toBeUndefined();
    expect(result.files).toContain("logos/groups/music/600x600.png");
  });
});

describe("spi-static import --download-logos", () => {
  it("writes the fetched logos and says how many files it wrote", async () => {
    const dataDir = join(root, "data-cli");
    const feed = await feedWithLogosAt("feed-cli");
    const imported = await runInProcess(
      [
        "import",
        feed,
        join(FIXTURES, "PI_real.xml"),
        "--time-zone",
        "Europe/London",
        "--now",
        "2016-09-29T12:00:00Z",
        "--data",
        dataDir,
        "--download-logos",
      ],
      root,
    );
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect((await readdir(join(dataDir, "logos/services/london"))).sort()).toEqual([
      "112x32.png",
      "128x128.png",
      "320x240.png",
      "32x32.png",
      "600x600.png",
    ]);
  });
});

describe("import --download-logos of a site spi-static built, from its folder", () => {
  /** A one-service site whose SI names its logos on its host, as spi-static publishes them. */
  async function siteCopy(name: string): Promise<string> {
    const site = join(root, name);
    const sizes = ["32x32", "112x32", "128x128", "320x240", "600x600"];
    const logos = sizes.map((size) => {
      const [width, height] = size.split("x");
      return `<multimedia type="logo_unrestricted" url="https://spi.site.example/logos/services/one/${size}-0123456789abcdef.png" mimeValue="image/png" width="${width}" height="${height}"/>`;
    });
    await mkdir(join(site, "radiodns/spi/3.1"), { recursive: true });
    await mkdir(join(site, "logos/services/one"), { recursive: true });
    await writeFile(
      join(site, "radiodns/spi/3.1/SI.xml"),
      `<serviceInformation xmlns="http://www.worlddab.org/schemas/spi/31" xml:lang="en" creationTime="2026-11-22T00:00:00Z"><services><service><shortName>One</shortName><mediumName>Radio One</mediumName><mediaDescription>${logos.join("</mediaDescription><mediaDescription>")}</mediaDescription><genre href="urn:tva:metadata:cs:ContentCS:2011:3.6.4">Pop</genre><bearer id="https://stream.site.example/one.aac" cost="100" mimeValue="audio/aacp" bitrate="64"/><radiodns fqdn="rdns.site.example" serviceIdentifier="one"/></service></services></serviceInformation>`,
    );
    for (const size of sizes) {
      const [width, height] = size.split("x").map(Number);
      const png = await sharp({
        create: { width: width ?? 0, height: height ?? 0, channels: 4, background: "#0a0" },
      })
        .png()
        .toBuffer();
      await writeFile(join(site, `logos/services/one/${size}-0123456789abcdef.png`), png);
    }
    return site;
  }

  it("reads the logos from the folder's logos/, never from the site's host", async () => {
    const site = await siteCopy("site");
    const dataDir = join(root, "data-site");
    const result = await importToDataFolder({
      from: { files: [site] },
      dataDir,
      timeZone: "Europe/London",
      now: NOW,
      force: false,
      downloadLogos: { timeoutMs: 5000 },
    });
    expect(result.notes.map((n) => n.message).filter((m) => m.includes("logos kept"))).toEqual([]);
    const service = parse(await readFile(join(dataDir, "services/one.yaml"), "utf8"));
    expect(service.logo.source).toBe("logos/services/one/600x600.png");
    expect(await readFile(join(dataDir, "logos/services/one/600x600.png"))).toEqual(
      await readFile(join(site, "logos/services/one/600x600-0123456789abcdef.png")),
    );
  });

  it("does not read a logo that is a link in the folder: the service keeps its URLs, with a note", async () => {
    const site = await siteCopy("site-link");
    const logo = join(site, "logos/services/one/600x600-0123456789abcdef.png");
    await rm(logo);
    await writeFile(join(root, "outside.png"), "not read");
    await symlink(join(root, "outside.png"), logo);
    const dataDir = join(root, "data-site-link");
    const result = await importToDataFolder({
      from: { files: [site] },
      dataDir,
      timeZone: "Europe/London",
      now: NOW,
      force: false,
      downloadLogos: { timeoutMs: 5000 },
    });
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContain(
      `service one: logos kept as URLs: https://spi.site.example/logos/services/one/600x600-0123456789abcdef.png is not in the imported folder (${site}) at logos/services/one/600x600-0123456789abcdef.png`,
    );
    const service = parse(await readFile(join(dataDir, "services/one.yaml"), "utf8"));
    expect(service.logo).toBeUndefined();
  });

  it("does not read a logo through a linked folder on the way", async () => {
    const site = await siteCopy("site-linked-folder");
    const elsewhere = join(root, "elsewhere");
    await rename(join(site, "logos/services"), elsewhere);
    await symlink(elsewhere, join(site, "logos/services"));
    const result = await importToDataFolder({
      from: { files: [site] },
      dataDir: join(root, "data-site-linked-folder"),
      timeZone: "Europe/London",
      now: NOW,
      force: false,
      downloadLogos: { timeoutMs: 5000 },
    });
    expect(result.notes.map((n) => `${n.origin}: ${n.message}`)).toContainEqual(
      expect.stringMatching(/^service one: logos kept as URLs: .* is not in the imported folder/),
    );
  });
});
