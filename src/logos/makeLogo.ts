import { LOGO_SIZES } from "../load/formats/logoSizes.js";
import { type ImageLibrary, openSource } from "../load/logos/logoSourceImage.js";
import type { LogoRecipe } from "../load/model/broadcaster.js";

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };

/** JPEG logos (`logo.jpeg`): high enough that a logo's edges stay clean at 320x240 and 600x600. */
const JPEG_QUALITY = 90;

/**
 * A logo's bytes, from its source's bytes: a hand-drawn image as it is; anything else scaled to
 * fit the size (contained, centred, never cropped) on the background colour or on transparency,
 * and encoded as PNG (or JPEG, `logo.jpeg`) with fixed settings and no metadata, so the same source and options make
 * the same bytes every time (its name says so). An SVG is drawn at the size, not scaled after.
 * Any change here that changes the bytes bumps RECIPE_VERSION (load/logos/logosFromSource.ts), which
 * names every made logo, so published logos are made again under new names.
 */
export async function makeLogo(
  recipe: LogoRecipe,
  source: Buffer,
  library: ImageLibrary,
): Promise<Buffer> {
  if (recipe.asIs) return source;
  const size = LOGO_SIZES.find((s) => s.name === recipe.size);
  if (!size) throw new Error(`no logo size ${recipe.size}`);
  const {
    format,
    width = 0,
    height = 0,
  } = await library.open(source, { limitInputPixels: false }).metadata();
  let image = openSource(source, { format, width, height }, size, library)
    .autoOrient()
    .resize(size.width, size.height, {
      fit: "contain",
      background: recipe.background ?? TRANSPARENT,
      kernel: "lanczos3",
    });
  if (recipe.background !== undefined) image = image.flatten({ background: recipe.background });
  image = image.toColourspace("srgb");
  if (recipe.format === "jpeg") {
    // Baseline, fixed quality and Huffman tables, no metadata: the same bytes every time.
    return image
      .jpeg({
        quality: JPEG_QUALITY,
        progressive: false,
        chromaSubsampling: "4:2:0",
        optimiseCoding: true,
        mozjpeg: false,
      })
      .toBuffer();
  }
  return image.png({ compressionLevel: 9, adaptiveFiltering: false, palette: false }).toBuffer();
}
