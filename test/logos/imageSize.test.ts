import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { imageIsWhole, imageSizeOf } from "../../src/logos/imageSize.js";

const blank = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#336699" } });

describe("imageSizeOf reads the size from the header bytes", () => {
  it("of a PNG", async () => {
    expect(imageSizeOf(await blank(112, 32).png().toBuffer())).toEqual({
      format: "png",
      width: 112,
      height: 32,
    });
  });

  it("of baseline and progressive JPEGs, metadata segments before the frame included", async () => {
    const baseline = await blank(320, 240).jpeg().toBuffer();
    const progressive = await blank(600, 400).jpeg({ progressive: true }).withMetadata().toBuffer();
    expect(imageSizeOf(baseline)).toEqual({ format: "jpeg", width: 320, height: 240 });
    expect(imageSizeOf(progressive)).toEqual({ format: "jpeg", width: 600, height: 400 });
  });

  it("of nothing else, nor of a header cut short", async () => {
    const jpeg = await blank(32, 32).jpeg().toBuffer();
    const png = await blank(32, 32).png().toBuffer();
    expect(imageSizeOf(await blank(32, 32).webp().toBuffer())).toBeUndefined();
    expect(imageSizeOf(Buffer.from("<svg/>"))).toBeUndefined();
    expect(imageSizeOf(jpeg.subarray(0, 20))).toBeUndefined();
    expect(imageSizeOf(png.subarray(0, 20))).toBeUndefined();
  });
});

describe("imageIsWhole finds a damaged logo", () => {
  it("a PNG with a byte changed inside (by its chunks' CRCs) or cut short", async () => {
    const png = await blank(600, 600).png().toBuffer();
    expect(imageIsWhole(png)).toBe(true);
    const flipped = Buffer.from(png);
    const middle = flipped.length >> 1;
    flipped[middle] = (flipped[middle] ?? 0) ^ 0xff;
    expect(imageSizeOf(flipped)).toEqual(imageSizeOf(png));
    expect(imageIsWhole(flipped)).toBe(false);
    expect(imageIsWhole(png.subarray(0, png.length - 1))).toBe(false);
  });

  it("a JPEG cut short", async () => {
    const jpeg = await blank(320, 240).jpeg().toBuffer();
    expect(imageIsWhole(jpeg)).toBe(true);
    expect(imageIsWhole(jpeg.subarray(0, jpeg.length >> 1))).toBe(false);
  });
});
