import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { loadBroadcaster } from "../../../src/load/loadBroadcaster.js";
import { formatProblem } from "../../../src/load/text/inputProblem.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-logo-sources-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#c00"/></svg>\n`;
const minimalService = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");
/** The minimal service with `logo` for its list of URLs. */
const serviceWithLogo = (logo: string) =>
  minimalService.replace(/^logos:\n( {2}- .*\n)+/m, `${logo}\n`);

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: "#0a0" } })
    .png()
    .toBuffer();
}

/** The minimal data folder with these service YAML and logo files. */
async function dataFolder(
  name: string,
  logo: string,
  files: Record<string, string | Buffer>,
): Promise<string> {
  const dir = join(root, name);
  await cp("test/fixtures/minimal", dir, { recursive: true });
  await writeFile(join(dir, "services/one.yaml"), serviceWithLogo(logo));
  await mkdir(join(dir, "logos"), { recursive: true });
  for (const [path, bytes] of Object.entries(files)) await writeFile(join(dir, path), bytes);
  return dir;
}

/** Every problem as `file:line:col field: message`, the file relative to the data folder. */
async function problemsOf(dir: string): Promise<string[]> {
  const { problems } = await loadBroadcaster(dir);
  return problems.map((p) =>
    formatProblem({ ...p, file: relative(dir, join(process.cwd(), p.file)) }),
  );
}

describe("logo sources", () => {
  it("makes every expected size from one SVG, as absolute URLs on the site's host", async () => {
    const dir = await dataFolder("svg", "logo: logos/one.svg", { "logos/one.svg": SVG });
    const { broadcaster, problems } = await loadBroadcaster(dir);
    expect(problems).toEqual([]);
    const logos = broadcaster?.services[0]?.logos ?? [];
    expect(logos.map((l) => [l.type, l.width, l.height, l.mimeValue])).toEqual([
      ["logo_colour_square", 32, 32, "image/png"],
      ["logo_colour_rectangle", 112, 32, "image/png"],
      ["logo_unrestricted", 128, 128, "image/png"],
      ["logo_unrestricted", 320, 240, "image/png"],
      ["logo_unrestricted", 600, 600, "image/png"],
    ]);
    // No discovery host in the fixture: the radiodnsHost serves out/.
    for (const logo of logos) {
      expect(logo.url).toMatch(
        new RegExp(
          `^https://rdns\\.test\\.example/logos/services/one/${logo.width}x${logo.height}-[0-9a-f]{16}\\.png$`,
        ),
      );
    }
  });

  it("names a logo by its source and options: another source or background, another name", async () => {
    const urls = async (name: string, logo: string, svg: string) => {
      const { broadcaster } = await loadBroadcaster(
        await dataFolder(name, logo, { "logos/one.svg": svg }),
      );
      return broadcaster?.services[0]?.logos.map((l) => l.url.replace(/^.*\//, ""));
    };
    const first = await urls("name-a", "logo: logos/one.svg", SVG);
    expect(await urls("name-b", "logo: logos/one.svg", SVG)).toEqual(first);
    const otherSource = await urls("name-c", "logo: logos/one.svg", SVG.replace("#c00", "#00c"));
    const otherOptions = await urls(
      "name-d",
      'logo: { source: logos/one.svg, background: "#fff" }',
      SVG,
    );
    for (const [i, name] of (first ?? []).entries()) {
      expect(otherSource?.[i]).not.toBe(name);
      expect(otherOptions?.[i]).not.toBe(name);
    }
  });

  it("keeps a size given by URL in logos, and makes the rest", async () => {
    const dir = await dataFolder(
      "mixed",
      'logos:\n  - { url: "https://img.test.example/one/32x32.png", size: 32x32 }\nlogo: logos/one.svg',
      { "logos/one.svg": SVG },
    );
    const { broadcaster, problems } = await loadBroadcaster(dir);
    expect(problems).toEqual([]);
    const urls = broadcaster?.services[0]?.logos.map((l) => l.url) ?? [];
    expect(urls[0]).toBe("https://img.test.example/one/32x32.png");
    expect(urls.slice(1).every((url) => url.startsWith("https://rdns.test.example/logos/"))).toBe(
      true,
    );
  });

  it("uses hand-drawn sizes as they are, after checking their size and format", async () => {
    const dir = await dataFolder(
      "drawn",
      "logo:\n  source: logos/one.svg\n  sizes:\n    32x32: logos/one-32.png\n    112x32: logos/one-112.png\n    600x600: logos/one-600.jpg",
      {
        "logos/one.svg": SVG,
        "logos/one-32.png": await png(32, 32),
        "logos/one-112.png": await png(100, 32),
        "logos/one-600.jpg": await png(600, 600),
      },
    );
    const shown = (path: string) => relative(process.cwd(), join(dir, path));
    expect(await problemsOf(dir)).toEqual([
      `services/one.yaml:9:13 logo.sizes.112x32: ${shown("logos/one-112.png")} is 100x32 pixels; an image for 112x32 must be exactly 112x32`,
      `services/one.yaml:10:14 logo.sizes.600x600: ${shown("logos/one-600.jpg")} holds a PNG image, not the JPEG its name says`,
    ]);
  });

  it("reports a source that is not an image, missing, too small or not square, at the YAML", async () => {
    const shown = (dir: string, path: string) => relative(process.cwd(), join(dir, path));
    const notImage = await dataFolder("not-image", "logo: logos/one.png", {
      "logos/one.png": "not a PNG at all",
    });
    expect(await problemsOf(notImage)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^services/one.yaml:5:7 logo: ${shown(notImage, "logos/one.png")} is not an image that can be decoded`,
        ),
      ),
    ]);
    const missing = await dataFolder("missing", "logo: logos/gone.svg", {});
    expect(await problemsOf(missing)).toEqual([
      `services/one.yaml:5:7 logo: ${shown(missing, "logos/gone.svg")} is missing`,
    ]);
    const small = await dataFolder("small", "logo: logos/one.png", {
      "logos/one.png": await png(200, 200),
    });
    expect(await problemsOf(small)).toEqual([
      `services/one.yaml:5:7 logo: ${shown(small, "logos/one.png")} is 200x200 pixels: too small for the 320x240 logo (it needs at least 240x240, or an SVG)`,
      `services/one.yaml:5:7 logo: ${shown(small, "logos/one.png")} is 200x200 pixels: too small for the 600x600 logo (it needs at least 600x600, or an SVG)`,
    ]);
    const wide = await dataFolder("wide", "logo: logos/one.png", {
      "logos/one.png": await png(1200, 600),
    });
    expect(await problemsOf(wide)).toHaveLength(3);
    expect((await problemsOf(wide))[0]).toContain(
      "is 1200x600, not square: the 32x32 logo is a square; give logo.background",
    );
    const onColour = await dataFolder(
      "wide-on-colour",
      'logo: { source: logos/one.png, background: "#ffffff" }',
      { "logos/one.png": await png(1200, 600) },
    );
    expect(await problemsOf(onColour)).toEqual([]);
  });

  it("refuses an SVG that references a file or URL, at the SVG's line and column", async () => {
    const dir = await dataFolder("svg-external", "logo: logos/one.svg", {
      "logos/one.svg":
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">\n' +
        '  <image xlink:href="file:///etc/hostname" width="10" height="10"/>\n' +
        '  <use href="#own"/><rect style="fill: url(https://example.com/x.svg#p)" width="1" height="1"/>\n' +
        "</svg>\n",
    });
    const svg = relative(process.cwd(), join(dir, "logos/one.svg"));
    expect((await loadBroadcaster(dir)).problems.map(formatProblem)).toEqual([
      `${svg}:2:10: references "file:///etc/hostname": a logo source must be self-contained (embed images as data: URLs, draw text as paths)`,
      `${svg}:3:40: references "https://example.com/x.svg#p": a logo source must be self-contained (embed images as data: URLs, draw text as paths)`,
    ]);
  });

  it("warns, at the first one, that an SVG's text is drawn with the building machine's fonts", async () => {
    const dir = await dataFolder("svg-text", "logo: logos/one.svg", {
      "logos/one.svg":
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">\n' +
        '  <rect width="10" height="10"/>\n' +
        '  <text x="1" y="8">R<tspan font-weight="bold">1</tspan></text>\n' +
        "</svg>\n",
    });
    const svg = relative(process.cwd(), join(dir, "logos/one.svg"));
    const { problems, broadcaster } = await loadBroadcaster(dir);
    expect(problems.map(formatProblem)).toEqual([
      `${svg}:3:3: warning: draws text (<text> and 1 more) with the fonts of the machine that builds: the logo's pixels and file name then differ between this machine and a CI runner; convert text to paths in your drawing program`,
    ]);
    expect(problems[0]?.severity).toBe("warning");
    expect(broadcaster?.services[0]?.logos).toHaveLength(5);
  });

  it("refuses a source outside the data folder, by its path", async () => {
    const dir = await dataFolder("outside", "logo: ../outside.svg", {});
    expect((await problemsOf(dir))[0]).toContain("is not a source image path");
  });
});

describe("a service group's logo source", () => {
  it("makes its logos under logos/groups/<id>/", async () => {
    const dir = await dataFolder("group", "logo: logos/one.svg\ngroups: [music]", {
      "logos/one.svg": SVG,
    });
    const provider = join(dir, "provider.yaml");
    await writeFile(
      provider,
      `${await readFile(provider, "utf8")}serviceGroups:\n  music:\n    name: { short: Music, long: Music Radio }\n    logo: logos/one.svg\n`,
    );
    const { broadcaster, problems } = await loadBroadcaster(dir);
    expect(problems).toEqual([]);
    const [group] = broadcaster?.provider.serviceGroups ?? [];
    expect(group?.logos.map((logo) => logo.url.replace(/-[0-9a-f]{16}\.png$/, ""))).toEqual(
      ["32x32", "112x32", "128x128", "320x240", "600x600"].map(
        (size) => `https://rdns.test.example/logos/groups/music/${size}`,
      ),
    );
  });
});
