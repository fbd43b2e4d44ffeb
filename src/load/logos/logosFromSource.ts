import { createHash } from "node:crypto";
import { join } from "node:path";
import { LOGO_SIZES, type LogoSize } from "../formats/logoSizes.js";
import type { Logo, LogoRecipe } from "../model/broadcaster.js";
import type { LogoSourceInput } from "../schema/logoSourceInput.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";
import {
  imageLibrary,
  type LogoFolder,
  readSourceImage,
  type SourceImage,
} from "./logoSourceImage.js";

/**
 * Bumped whenever the way a logo is made changes (fit, encoder settings): it is part of every
 * made logo's name, so a new recipe makes every logo again under a new name.
 */
const RECIPE_VERSION = "1";

/** The sizes `logo.jpeg` makes as JPEG: the large ones, where §6.5 allows it and artefacts are least seen. */
const JPEG_SIZES: ReadonlySet<string> = new Set(["320x240", "600x600"]);

/** Where a provider's, service's or group's `logo` is and what its logos are published as. */
export interface LogoOwner {
  file: YamlFile;
  /** The path of the owner in its file ([] for a provider or service). */
  at: readonly PropertyKey[];
  /** Its folder below `logos/` in the output: provider, services/<id>, groups/<id>. */
  folder: string;
  /** https://host[:port] the site is served from: the provider's discovery host. */
  site: string;
}

/** `https://<discovery host>[:port]`: where out/ is served, so where its logos are. */
export function siteOrigin(discovery: { host: string; httpsPort: number }): string {
  return `https://${discovery.host}${discovery.httpsPort === 443 ? "" : `:${discovery.httpsPort}`}`;
}

/**
 * The logos the build makes from a `logo` source (every expected size not given in `logos`),
 * appended to `logos`, after checking each source can make them: each problem is pushed to
 * `problems`, and a size whose source has an error is left out.
 */
export async function logosFromSource(
  input: LogoSourceInput | undefined,
  given: readonly Logo[],
  owner: LogoOwner,
  data: LogoFolder,
  problems: InputProblem[],
): Promise<Logo[]> {
  if (input === undefined) return [...given];
  const spec = typeof input === "string" ? { source: input } : input;
  const at = [...owner.at, "logo"];
  const field = (name: string) => (typeof input === "string" ? at : [...at, name]);
  const library = await imageLibrary();
  const images = new Map<string, SourceImage | undefined>();
  const imageAt = async (path: string, where: PropertyKey[]) => {
    if (!images.has(path)) {
      const image = readSourceImage(
        join(data.dataDir, path),
        data,
        library,
        owner.file,
        where,
        problems,
      );
      images.set(path, await image);
    }
    return images.get(path);
  };
  const jpeg = typeof input !== "string" && input.jpeg === true;
  if (jpeg && spec.background === undefined) {
    problems.push(
      owner.file.error(
        [...at, "jpeg"],
        'needs a background ("#rrggbb"): a JPEG has no transparency to contain the logo on',
      ),
    );
    return [...given];
  }
  const made: Logo[] = [];
  for (const size of LOGO_SIZES) {
    if (given.some((logo) => logo.width === size.width && logo.height === size.height)) continue;
    const override = spec.sizes?.[size.name];
    const [path, where] =
      override !== undefined
        ? [override, [...at, "sizes", size.name]]
        : size.shape === "rectangle" && spec.rectangle !== undefined
          ? [spec.rectangle, [...at, "rectangle"]]
          : size.shape === "landscape" && spec.landscape !== undefined
            ? [spec.landscape, [...at, "landscape"]]
            : [spec.source, field("source")];
    const image = await imageAt(path, where);
    if (!image) continue;
    const problem =
      override !== undefined
        ? drawnSizeProblem(image, size)
        : sourceProblem(image, size, spec.background !== undefined);
    if (problem !== undefined) {
      problems.push(owner.file.error(where, `${data.display(image.path)} ${problem}`));
      continue;
    }
    const asIs = override !== undefined;
    const madeFormat = jpeg && JPEG_SIZES.has(size.name) ? "jpeg" : "png";
    const format = asIs ? image.format : madeFormat;
    // The format joins the name only for a JPEG: the names of PNG logos stay as they were.
    const recipeParts = [RECIPE_VERSION, library.version, size.name, asIs, spec.background];
    if (!asIs && madeFormat === "jpeg") recipeParts.push("jpeg");
    const hash = createHash("sha256")
      .update([...recipeParts, image.digest].join("\0"))
      .digest("hex")
      .slice(0, 16);
    const recipe: LogoRecipe = {
      size: size.name,
      source: { path: image.path, display: data.display(image.path), digest: image.digest },
      background: asIs ? undefined : spec.background,
      asIs,
      format: format === "jpeg" ? "jpeg" : "png",
      path: `logos/${owner.folder}/${size.name}-${hash}.${format === "jpeg" ? "jpg" : "png"}`,
      origin: owner.file.locateLater(where),
    };
    made.push({
      url: `${owner.site}/${recipe.path}`,
      width: size.width,
      height: size.height,
      type: size.type,
      mimeValue: `image/${format}`,
      made: recipe,
    });
  }
  return [...given, ...made];
}

/**
 * What a model's made logos are named by (a hash of their sources and options): part of the
 * inputs of the documents that name them, so a changed source renders SI again.
 */
export function madeLogoInputs(logos: readonly Logo[]): string[] {
  return logos.flatMap((logo) => (logo.made ? [`logo ${logo.made.path}`] : []));
}

/** Why a hand-drawn image cannot stand for `size`, if it cannot. */
function drawnSizeProblem(image: SourceImage, size: LogoSize): string | undefined {
  const { name } = size;
  if (image.format === "svg") {
    return `is an SVG; an image for ${name} is drawn at its size: a PNG${size.type === "logo_unrestricted" ? " or JPEG" : ""} of ${name} pixels`;
  }
  if (size.type !== "logo_unrestricted" && image.format !== "png") {
    return `is a ${image.format.toUpperCase()}; the ${name} logo must be a PNG (TS 102 818 §5.8)`;
  }
  if (image.width !== size.width || image.height !== size.height) {
    return `is ${image.width}x${image.height} pixels; an image for ${name} must be exactly ${name}`;
  }
  return undefined;
}

/** Why `image` cannot be made into `size`, if it cannot. */
function sourceProblem(
  image: SourceImage,
  size: LogoSize,
  hasBackground: boolean,
): string | undefined {
  const square = image.width === image.height;
  if (size.shape === "square" && !square && !hasBackground) {
    return (
      `is ${image.width}x${image.height}, not square: the ${size.name} logo is a square; ` +
      `give logo.background to contain the image on a colour, or a square source`
    );
  }
  // A vector image is drawn at any size; a raster one is never scaled up (it would be blurred).
  const scale = Math.min(size.width / image.width, size.height / image.height);
  if (image.format !== "svg" && scale > 1) {
    const needed = `${Math.ceil(image.width * scale)}x${Math.ceil(image.height * scale)}`;
    return `is ${image.width}x${image.height} pixels: too small for the ${size.name} logo (it needs at least ${needed}, or an SVG)`;
  }
  return undefined;
}
