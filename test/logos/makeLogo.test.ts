import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { LogoSizeName } from "../../src/load/formats/logoSizes.js";
import { imageLibrary } from "../../src/load/logos/logoSourceImage.js";
import type { LogoRecipe } from "../../src/load/model/broadcaster.js";
import { NOT_LOCATED } from "../../src/load/text/inputProblem.js";
import { makeLogo } from "../../src/logos/makeLogo.js";

const SQUARE_SVG = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10">` +
    `<rect width="10" height="10" rx="2" fill="#0b3c5d"/><circle cx="5" cy="5" r="3" fill="#fff"/></svg>`,
);

function recipe(size: LogoSizeName, background?: string): LogoRecipe {
  return {
    size,
    source: { path: "logo.svg", display: "logo.svg", digest: "" },
    background,
    asIs: false,
    format: "png",
    path: `logos/provider/${size}-0000000000000000.png`,
    origin: NOT_LOCATED,
  };
}

describe("makeLogo", () => {
  it("draws an SVG at each size as a PNG of exactly that size", async () => {
    const library = await imageLibrary();
    for (const [size, width, height] of [
      ["32x32", 32, 32],
      ["112x32", 112, 32],
      ["128x128", 128, 128],
      ["320x240", 320, 240],
      ["600x600", 600, 600],
    ] as const) {
      const made = await makeLogo(recipe(size), SQUARE_SVG, library);
      const metadata = await sharp(made).metadata();
      expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
        format: "png",
        width,
        height,
      });
      // Contained on transparency: RGBA, and the rectangle's sides are see-through.
      expect(metadata.channels).toBe(4);
    }
  });

  it("draws an SVG whose canvas is far larger than the logo (a viewBox of 100000 units, no size)", async () => {
    const huge = Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000 100000"><rect width="100000" height="100000" fill="#f00"/></svg>`,
    );
    const made = await makeLogo(recipe("600x600"), huge, await imageLibrary());
    const { data, info } = await sharp(made).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([600, 600]);
    expect([...data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it("makes the same bytes from the same source every time", async () => {
    const library = await imageLibrary();
    const first = await makeLogo(recipe("600x600"), SQUARE_SVG, library);
    const second = await makeLogo(recipe("600x600"), Buffer.from(SQUARE_SVG), library);
    expect(second.equals(first)).toBe(true);
  });

  it("contains a wide source on its background colour, opaque (RGB)", async () => {
    const library = await imageLibrary();
    const wide = await sharp({
      create: { width: 400, height: 100, channels: 3, background: "#ff0000" },
    })
      .png()
      .toBuffer();
    const made = await makeLogo(recipe("128x128", "#00ff00"), wide, library);
    const metadata = await sharp(made).metadata();
    expect([metadata.width, metadata.height, metadata.channels, metadata.hasAlpha]).toEqual([
      128,
      128,
      3,
      false,
    ]);
    const { data } = await sharp(made).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * 128 + x) * 3, (y * 128 + x) * 3 + 3),
    ];
    expect(pixel(64, 2)).toEqual([0, 255, 0]);
    expect(pixel(64, 64)).toEqual([255, 0, 0]);
  });

  it("makes a baseline JPEG of the size on its background when asked, the same bytes every time", async () => {
    const library = await imageLibrary();
    for (const [size, width, height] of [
      ["320x240", 320, 240],
      ["600x600", 600, 600],
    ] as const) {
      const jpeg: LogoRecipe = { ...recipe(size, "#ffffff"), format: "jpeg" };
      const made = await makeLogo(jpeg, SQUARE_SVG, library);
      const metadata = await sharp(made).metadata();
      expect([metadata.format, metadata.width, metadata.height, metadata.channels]).toEqual([
        "jpeg",
        width,
        height,
        3,
      ]);
      expect(metadata.isProgressive).toBe(false);
      expect(metadata.exif).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      expect((await makeLogo(jpeg, Buffer.from(SQUARE_SVG), library)).equals(made)).toBe(true);
      // Contained on white: the 4:3 size's sides are the background, the middle the logo's blue.
      const { data, info } = await sharp(made).raw().toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => [
        ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
      ];
      if (size === "320x240") expect(pixel(5, 120).every((v) => v > 245)).toBe(true);
      const [r = 0, g = 0, b = 0] = pixel(Math.round(width / 2), Math.round(height / 8));
      expect(Math.abs(r - 0x0b) + Math.abs(g - 0x3c) + Math.abs(b - 0x5d)).toBeLessThan(24);
    }
  });

  it("publishes a hand-drawn image as it is", async () => {
    const library = await imageLibrary();
    const drawn = await sharp({
      create: { width: 32, height: 32, channels: 4, background: "#123" },
    })
      .png()
      .toBuffer();
    const made = await makeLogo({ ...recipe("32x32"), asIs: true }, drawn, library);
    expect(made.equals(drawn)).toBe(true);
  });
});
