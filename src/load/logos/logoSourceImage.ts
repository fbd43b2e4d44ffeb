import { createHash } from "node:crypto";
import type { Sharp, SharpOptions } from "sharp";
import { type DataFolder, textOf } from "../files/dataFolder.js";
import { LOGO_SIZES } from "../formats/logoSizes.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";
import { externalSvgReferences, svgDrawnElements, svgTextElements } from "./svgReferences.js";

/** sharp (libvips), loaded only by a build with logo sources, and its version. */
export interface LogoFolder {
  dataDir: string;
  folder: DataFolder;
  display: (path: string) => string;
}

export interface ImageLibrary {
  open(input: Buffer, options?: SharpOptions): Sharp;
  /** sharp's and libvips' versions: a new one may make other bytes, so it names made logos. */
  version: string;
}

let loaded: Promise<ImageLibrary> | undefined;

export function imageLibrary(): Promise<ImageLibrary> {
  loaded ??= import("sharp").then(({ default: sharp }) => {
    // Decoded images are small and made once; libvips' cache would only hold memory.
    sharp.cache(false);
    return {
      open: (input, options) => sharp(input, options),
      version: `sharp ${sharp.versions.sharp} libvips ${sharp.versions.vips}`,
    };
  });
  return loaded;
}

/** A source image that decodes, with what the checks need. */
export interface SourceImage {
  path: string;
  format: "png" | "jpeg" | "svg";
  /** Pixels as shown (after the JPEG orientation tag); an SVG's at 72 dpi. */
  width: number;
  height: number;
  /** SHA-256 (hex) of its bytes. */
  digest: string;
}

const EXTENSION_FORMAT: Record<string, SourceImage["format"]> = {
  svg: "svg",
  png: "png",
  jpg: "jpeg",
  jpeg: "jpeg",
};

/**
 * The most pixels a source is decoded at: 40 megapixels, room for any real logo master (a 6000x6000
 * export, an 8K 7680x4320 frame, a 24-megapixel photo) — 100 times the largest logo made
 * (600x600) — while decoding stays within a few seconds and a few hundred MB. It is checked from
 * the header, before any pixel is decoded, so a small file claiming 16000x16000 costs nothing.
 */
export const MAX_SOURCE_PIXELS = 40_000_000;

/**
 * The most elements an SVG source may draw, its `<use>`s followed: a detailed logo draws a few
 * thousand; librsvg drew a `<use>` bomb of 250,000 for a minute, so one is refused before drawing.
 */
const MAX_SVG_ELEMENTS = 10_000;

/** The largest density librsvg is given: a tiny SVG canvas drawn at 600 pixels stays bounded. */
const MAX_SVG_DENSITY = 72 * 100;

/** The largest logo made (600x600): a source decodes for it at its largest. */
const LARGEST_LOGO = LOGO_SIZES.reduce((a, b) =>
  a.width * a.height >= b.width * b.height ? a : b,
);

/** What a source's header says: its format (sharp's name) and pixel size (an SVG's at 72 dpi). */
interface SourceHeader {
  format: string | undefined;
  width: number;
  height: number;
}

/**
 * The DPI an SVG is drawn at to make a logo of `size`: at that size, not scaled up after. At
 * least 1 (librsvg's least): a huge canvas (viewBox 0 0 100000 100000) is drawn small, then scaled.
 */
function svgDensity(image: SourceHeader, size: { width: number; height: number }): number {
  const density = 72 * Math.max(size.width / image.width, size.height / image.height);
  return Math.max(1, Math.min(MAX_SVG_DENSITY, density));
}

/**
 * The source decoded as a logo of `size` is made from it: a PNG or JPEG at its pixels, an SVG
 * drawn at that size; refused past MAX_SOURCE_PIXELS, and at any decoder warning (a truncated
 * file, or a JPEG whose header claims more than its data holds, would else be published grey).
 * The load's check and the making decode through this one function, so `validate` refuses what
 * the build would.
 */
export function openSource(
  bytes: Buffer,
  image: SourceHeader,
  size: { width: number; height: number },
  library: ImageLibrary,
): Sharp {
  const density = image.format === "svg" ? { density: svgDensity(image, size) } : {};
  return library.open(bytes, {
    failOn: "warning",
    limitInputPixels: MAX_SOURCE_PIXELS,
    ...density,
  });
}

/** Why a source is too large to decode, read from its header alone, if it is. */
function pixelLimitProblem(image: SourceHeader): string | undefined {
  const limit = `a logo source may have at most ${MAX_SOURCE_PIXELS / 1e6} megapixels`;
  if (image.format !== "svg") {
    if (image.width * image.height <= MAX_SOURCE_PIXELS) return undefined;
    return `is ${image.width}x${image.height} pixels (${megapixels(image.width, image.height)} megapixels): ${limit}; scale it down (the largest logo is ${LARGEST_LOGO.name})`;
  }
  const scale = svgDensity(image, LARGEST_LOGO) / 72;
  const drawn = {
    width: Math.round(image.width * scale),
    height: Math.round(image.height * scale),
  };
  if (drawn.width * drawn.height <= MAX_SOURCE_PIXELS) return undefined;
  return `is an SVG of ${image.width}x${image.height}, drawn at ${drawn.width}x${drawn.height} pixels (${megapixels(drawn.width, drawn.height)} megapixels) to make the ${LARGEST_LOGO.name} logo: ${limit}; give it a canvas nearer the logo's shape`;
}

function megapixels(width: number, height: number): string {
  return String(Math.round((width * height) / 1e5) / 10);
}

function notDecodable(error: unknown): string {
  return `is not an image that can be decoded (PNG, JPEG or SVG): ${(error as Error).message}`;
}

/**
 * The image at `path` (named at `where` in `file`), read as every data file is (inside the data
 * folder, bounded in size), decoded whole and checked: undefined, with the problem pushed, when
 * it cannot be read or decoded, is not the format its name says, or is an SVG that references
 * files or URLs.
 */
export async function readSourceImage(
  path: string,
  data: LogoFolder,
  library: ImageLibrary,
  file: YamlFile,
  where: readonly PropertyKey[],
  problems: InputProblem[],
): Promise<SourceImage | undefined> {
  const shown = data.display(path);
  const read = data.folder.readBytes(path);
  if ("unreadable" in read) {
    problems.push(file.error(where, `${shown} ${read.unreadable.message}`));
    return undefined;
  }
  const { bytes } = read;
  const named = EXTENSION_FORMAT[path.slice(path.lastIndexOf(".") + 1).toLowerCase()];
  let format: string | undefined;
  let width = 0;
  let height = 0;
  try {
    // The header alone (no pixels decoded): what it says is checked before anything is decoded.
    const metadata = await library.open(bytes, { limitInputPixels: false }).metadata();
    format = metadata.format;
    ({ width, height } = metadata.autoOrient);
  } catch (error) {
    problems.push(file.error(where, `${shown} ${notDecodable(error)}`));
    return undefined;
  }
  if (named === undefined || format !== named) {
    problems.push(
      file.error(
        where,
        `${shown} holds ${format === undefined ? "an unknown format" : `a ${format.toUpperCase()} image`}, not the ${named?.toUpperCase()} its name says`,
      ),
    );
    return undefined;
  }
  const decoded = { format: named, width, height };
  const tooLarge = pixelLimitProblem(decoded);
  if (tooLarge !== undefined) {
    problems.push(file.error(where, `${shown} ${tooLarge}`));
    return undefined;
  }
  // An SVG's references are refused before it is drawn: drawing would follow them.
  const text = named === "svg" ? textOf(bytes) : undefined;
  if (text !== undefined && "text" in text) {
    const references = externalSvgReferences(text.text);
    for (const { line, column, reference } of references) {
      problems.push({
        file: shown,
        line,
        column,
        field: "",
        severity: "error",
        message: `references ${JSON.stringify(reference)}: a logo source must be self-contained (embed images as data: URLs, draw text as paths)`,
      });
    }
    if (references.length > 0) return undefined;
    const drawn = svgDrawnElements(text.text);
    if (drawn > MAX_SVG_ELEMENTS) {
      const count = Number.isFinite(drawn)
        ? `${drawn} elements`
        : "endlessly (a <use> that names itself)";
      problems.push(
        file.error(
          where,
          `${shown} draws ${count} once its <use> references are followed: a logo source may draw at most ${MAX_SVG_ELEMENTS}`,
        ),
      );
      return undefined;
    }
  }
  try {
    // Decoded whole as the build decodes it for its largest logo: what the header hides (a
    // truncated or lying file, an SVG that cannot be drawn) is refused here, by validate too.
    await openSource(bytes, decoded, LARGEST_LOGO, library).stats();
  } catch (error) {
    problems.push(file.error(where, `${shown} ${notDecodable(error)}`));
    return undefined;
  }
  if (text !== undefined && "text" in text) {
    // One warning per file, at its first text element: a title in every size is one fix.
    const [first, ...more] = svgTextElements(text.text);
    if (first) {
      const others = more.length === 0 ? "" : ` and ${more.length} more`;
      problems.push({
        file: shown,
        line: first.line,
        column: first.column,
        field: "",
        severity: "warning",
        message: `draws text (<${first.reference}>${others}) with the fonts of the machine that builds: the logo's pixels and file name then differ between this machine and a CI runner; convert text to paths in your drawing program`,
      });
    }
  }
  return {
    path,
    format: named,
    width,
    height,
    digest: createHash("sha256").update(bytes).digest("hex"),
  };
}
