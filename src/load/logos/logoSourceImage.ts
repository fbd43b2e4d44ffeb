import { createHash } from "node:crypto";
import type { Sharp, SharpOptions } from "sharp";
import { type DataFolder, textOf } from "../files/dataFolder.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";
import { externalSvgReferences, svgTextElements } from "./svgReferences.js";

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
    const metadata = await library.open(bytes).metadata();
    format = metadata.format;
    ({ width, height } = metadata.autoOrient);
    // Decoding the whole image finds what the header hides: a truncated or damaged file.
    if (format !== "svg") await library.open(bytes, { failOn: "truncated" }).stats();
  } catch (error) {
    problems.push(
      file.error(
        where,
        `${shown} is not an image that can be decoded (PNG, JPEG or SVG): ${(error as Error).message}`,
      ),
    );
    return undefined;
  }
  if (format !== named) {
    problems.push(
      file.error(
        where,
        `${shown} holds ${format === undefined ? "an unknown format" : `a ${format.toUpperCase()} image`}, not the ${named?.toUpperCase()} its name says`,
      ),
    );
    return undefined;
  }
  if (format === "svg") {
    const text = textOf(bytes);
    const references = "text" in text ? externalSvgReferences(text.text) : [];
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
    // One warning per file, at its first text element: a title in every size is one fix.
    const [first, ...more] = "text" in text ? svgTextElements(text.text) : [];
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
