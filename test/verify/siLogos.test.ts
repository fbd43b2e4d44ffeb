import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { RawResponse } from "../../src/verify/fetchExactly.js";
import { logoProblems, logosNamedIn, ownLogoPath } from "../../src/verify/siLogos.js";

const SI = `<serviceInformation><services><service>
  <mediaDescription><multimedia type="logo_colour_square" url="https://spi.example/logos/services/pop/32x32-0123456789abcdef.png"/></mediaDescription>
  <mediaDescription><multimedia type="logo_unrestricted" url="https://spi.example/logos/services/pop/600x600-0123456789abcdef.jpg" mimeValue="image/jpeg" width="600" height="600"/></mediaDescription>
  <mediaDescription><multimedia type="logo_unrestricted" url="https://cdn.example/pop.png?a=1&amp;b=2" mimeValue="image/png" width="128" height="128"/></mediaDescription>
  <mediaDescription><multimedia type="logo_colour_square" url="https://spi.example/logos/services/pop/32x32-0123456789abcdef.png"/></mediaDescription>
</service></services></serviceInformation>`;

const answer = (bytes: Buffer, type: string, cacheControl: string): RawResponse => ({
  status: 200,
  headers: { "content-type": type, "cache-control": cacheControl },
  body: "",
  bytes,
});

const IMMUTABLE = "public, max-age=31536000, immutable";

describe("the logos an SI names", () => {
  it("are read with the size and type SI promises, each once", () => {
    const logos = logosNamedIn(SI);
    expect(logos.map((l) => [l.url.href, l.types, l.width, l.height])).toEqual([
      ["https://spi.example/logos/services/pop/32x32-0123456789abcdef.png", ["image/png"], 32, 32],
      [
        "https://spi.example/logos/services/pop/600x600-0123456789abcdef.jpg",
        ["image/jpeg"],
        600,
        600,
      ],
      ["https://cdn.example/pop.png?a=1&b=2", ["image/png"], 128, 128],
    ]);
  });

  it("are fetched from the verified site when on its host or at a path the build writes", () => {
    const [made, jpeg, external] = logosNamedIn(SI);
    if (!made || !jpeg || !external) throw new Error("three logos expected");
    const preview = new URL("http://127.0.0.1:8080");
    expect(ownLogoPath(made, preview)).toBe("/logos/services/pop/32x32-0123456789abcdef.png");
    expect(ownLogoPath(external, preview)).toBeUndefined();
    expect(ownLogoPath(external, new URL("https://cdn.example"))).toBe("/pop.png?a=1&b=2");
  });

  it("must be the image type, the pixel size and the caching SI's radios rely on", async () => {
    const [, jpeg] = logosNamedIn(SI);
    if (!jpeg) throw new Error("a JPEG logo expected");
    const image = (format: "jpeg" | "png", size: number) =>
      sharp({ create: { width: size, height: size, channels: 3, background: "#123456" } })
        .toFormat(format)
        .toBuffer();
    expect(logoProblems(jpeg, answer(await image("jpeg", 600), "image/jpeg", IMMUTABLE))).toEqual(
      [],
    );
    expect(logoProblems(jpeg, answer(await image("png", 600), "image/png", "max-age=60"))).toEqual([
      'Content-Type "image/png", expected image/jpeg',
      'Cache-Control "max-age=60": a logo should be public with a max-age of a day or more',
    ]);
    expect(logoProblems(jpeg, answer(await image("png", 600), "image/jpeg", IMMUTABLE))).toEqual([
      "a PNG served as image/jpeg",
    ]);
    expect(logoProblems(jpeg, answer(await image("jpeg", 300), "image/jpeg", IMMUTABLE))).toEqual([
      "300x300 pixels, SI says 600x600",
    ]);
    expect(
      logoProblems(jpeg, { ...answer(Buffer.from("<html/>"), "text/html", ""), status: 404 }),
    ).toEqual(["status 404"]);
  });

  it("must be whole: a PNG with a byte changed inside is found by its chunks' CRCs", async () => {
    const [made] = logosNamedIn(SI);
    if (!made) throw new Error("a PNG logo expected");
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#123" } })
      .png()
      .toBuffer();
    const middle = png.length >> 1;
    png[middle] = (png[middle] ?? 0) ^ 0xff;
    expect(logoProblems(made, answer(png, "image/png", IMMUTABLE))).toEqual([
      "damaged: cut short, or a PNG chunk's CRC fails",
    ]);
  });
});
