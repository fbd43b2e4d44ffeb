import { readFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { expect } from "vitest";

/** One logo an SI document names, and what the built site holds at its path. */
export interface PublishedLogo {
  url: string;
  /** `<size>` as the owner's folder and size name say: `services/bern 32x32`. */
  name: string;
  /** The file at the URL's path below the site folder; undefined when there is none (a 404). */
  bytes: Buffer | undefined;
  /** The file's pixel size, `WxH`. */
  size: string | undefined;
}

/** Every logo the site's open SI names, with the file the site would answer with. */
export async function publishedLogos(site: string): Promise<PublishedLogo[]> {
  const si = await readFile(join(site, "radiodns/spi/3.1/SI.xml"), "utf8");
  const urls = [...si.matchAll(/<multimedia [^>]*url="([^"]+)"/g)].map((m) => m[1] ?? "");
  return Promise.all(
    urls.map(async (url) => {
      const path = new URL(url).pathname;
      const bytes = await readFile(join(site, path)).catch(() => undefined);
      const meta = bytes && (await sharp(bytes).metadata());
      const name = path.replace(/^\/logos\/(.+)\/(\d+x\d+)-[0-9a-f]{16}\.png$/, "$1 $2");
      return { url, name, bytes, size: meta && `${meta.width}x${meta.height}` };
    }),
  );
}

/**
 * Every logo the rebuilt site's SI names is a file of the rebuilt site, the same bytes at the
 * same size as the original's logo of that owner and size. Only the names' hash part differs:
 * it digests the logo's source, the original's SVG and the imported PNG.
 */
export async function expectSameLogos(original: string, rebuilt: string) {
  const before = await publishedLogos(original);
  const after = await publishedLogos(rebuilt);
  expect(after.map((logo) => logo.name)).toEqual(before.map((logo) => logo.name));
  expect(after.filter((logo) => logo.bytes === undefined)).toEqual([]);
  after.forEach((logo, index) => {
    expect(logo.size, logo.name).toBe(logo.name.split(" ")[1]);
    expect(logo.bytes?.equals(before[index]?.bytes ?? Buffer.alloc(0)), logo.name).toBe(true);
  });
  const siOf = async (site: string) =>
    (await readFile(join(site, "radiodns/spi/3.1/SI.xml"), "utf8")).replace(
      /-[0-9a-f]{16}\.png/g,
      ".png",
    );
  expect(await siOf(rebuilt)).toBe(await siOf(original));
}
