import { z } from "zod";

/**
 * A source image in the data folder, relative to it (`logos/pop.svg`): PNG, JPEG or SVG. Kept
 * inside the folder, so a data repository never makes the build read a file of the machine.
 */
const sourcePath = z
  .string()
  .regex(/^(?![/\\])(?!.*(^|[/\\])\.\.([/\\]|$))[^\0]+\.(svg|png|jpe?g)$/i, {
    error:
      "is not a source image path: a .svg, .png or .jpg file inside the data folder, relative to it (logos/pop.svg)",
  });

const colour = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, {
  error: 'is not a colour: write it as "#rrggbb" (in quotes: # starts a YAML comment)',
});

/** Hand-drawn images used as they are for some sizes, instead of a scaled copy of the source. */
const sizeOverrides = z
  .strictObject({
    "32x32": sourcePath.optional().describe("A PNG of exactly 32x32 pixels."),
    "112x32": sourcePath.optional().describe("A PNG of exactly 112x32 pixels."),
    "128x128": sourcePath.optional().describe("A PNG or JPEG of exactly 128x128 pixels."),
    "320x240": sourcePath.optional().describe("A PNG or JPEG of exactly 320x240 pixels."),
    "600x600": sourcePath.optional().describe("A PNG or JPEG of exactly 600x600 pixels."),
  })
  .describe(
    "Images drawn for one size, published as they are (their size and format are checked).",
  );

export const logoSourceSchema = z
  .union([
    sourcePath.describe("The source image: the build makes every logo size from it."),
    z.strictObject({
      source: sourcePath.describe(
        "The source image (square, unless a background is given): every size not given otherwise is made from it.",
      ),
      background: colour
        .optional()
        .describe(
          "Contain the image on this colour instead of a transparent background (needed for a source that is not square).",
        ),
      rectangle: sourcePath
        .optional()
        .describe("The source of the 112x32 rectangle logo (a wide version of the logo)."),
      landscape: sourcePath.optional().describe("The source of the 4:3 logo (320x240)."),
      jpeg: z
        .boolean()
        .optional()
        .describe(
          "Make the 320x240 and 600x600 logos as JPEG (smaller for photographic logos; TS 102 818 §6.5 allows it there). Needs a background: a JPEG has no transparency.",
        ),
      sizes: sizeOverrides.optional(),
    }),
  ])
  .describe(
    "Logos made by the build from an image in the data folder (32x32, 112x32, 128x128, 320x240, 600x600), published beside the documents; sizes in `logos` keep their URL.",
  );

export type LogoSourceInput = z.infer<typeof logoSourceSchema>;
