import { LOGO_SIZE_NAMES } from "../formats/logoSizes.js";
import { imageMimeType } from "../formats/mediaType.js";
import { FIXED_LOGO_SIZES, type LogoType } from "../formats/spiFormat.js";
import type { Logo } from "../model/broadcaster.js";
import type { LogoInput } from "../schema/fields.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";

/** The formats of the required logo sizes for IP delivery (TS 102 818 §6.5). */
const REQUIRED_LOGO_TYPES = ["image/png", "image/jpeg"];

/** Size → the fixed-size logo type it implies. */
const fixedTypeOfSize = new Map<string, LogoType>(
  Object.entries(FIXED_LOGO_SIZES).map(([type, size]) => [size, type as LogoType]),
);

/**
 * The logos of a provider, service or service group (at `logos` below `at` in `file`), with
 * their type and size checked. A missing size is warned of, unless logos are `optional` (a
 * group's) and none are given, or a `logo` source makes the missing ones (logosFromSource.ts).
 */
export function loadLogos(
  inputs: LogoInput[] | undefined,
  file: YamlFile,
  problems: InputProblem[],
  {
    at = [],
    optional = false,
    fromSource = false,
  }: { at?: readonly PropertyKey[]; optional?: boolean; fromSource?: boolean } = {},
): Logo[] {
  const path = [...at, "logos"];
  const logos = (inputs ?? []).map((input, i) => toLogo(input, file, [...path, i], problems));
  const missing = LOGO_SIZE_NAMES.filter((size) => !inputs?.some((logo) => logo.size === size));
  if (missing.length > 0 && !fromSource && !(optional && inputs === undefined)) {
    problems.push(
      file.warning(
        path,
        `no logo at ${missing.join(", ")} (clients expect ${LOGO_SIZE_NAMES.join(", ")})`,
      ),
    );
  }
  return logos;
}

function toLogo(
  input: LogoInput,
  file: YamlFile,
  path: PropertyKey[],
  problems: InputProblem[],
): Logo {
  const [width, height] = input.size.split("x").map(Number) as [number, number];
  const sizeType = fixedTypeOfSize.get(input.size);
  const type = input.type ?? sizeType ?? "logo_unrestricted";
  if (type !== "logo_unrestricted" && type !== sizeType) {
    const expected = FIXED_LOGO_SIZES[type];
    problems.push(file.error([...path, "type"], `${type} must be ${expected}, not ${input.size}`));
  }
  const fromUrl = imageMimeType(input.url);
  const mimeValue = input.mimeValue ?? fromUrl;
  // TS 102 818 §5.8 (table 8): both fixed-size logos shall be PNG.
  if (type !== "logo_unrestricted" && mimeValue !== undefined && mimeValue !== "image/png") {
    const [field, given] =
      input.mimeValue === undefined
        ? ["url", `the URL's extension names ${fromUrl}`]
        : ["mimeValue", `not ${mimeValue}`];
    problems.push(
      file.error([...path, field], `${type} must be a PNG image (image/png), ${given}`),
    );
  }
  // TS 102 818 §6.5: the sizes every IP client looks for are PNG or JPEG; other sizes are extra.
  const required =
    type === "logo_unrestricted" && (LOGO_SIZE_NAMES as readonly string[]).includes(input.size);
  if (required && mimeValue !== undefined && !REQUIRED_LOGO_TYPES.includes(mimeValue)) {
    const [field, given] =
      input.mimeValue === undefined
        ? ["url", `the URL's extension names ${fromUrl}`]
        : ["mimeValue", `not ${mimeValue}`];
    problems.push(
      file.error(
        [...path, field],
        `a ${input.size} logo, one of the sizes clients look for, must be PNG or JPEG (TS 102 818 §6.5), ${given}`,
      ),
    );
  }
  if (type === "logo_unrestricted" && !mimeValue) {
    problems.push(
      file.error([...path, "mimeValue"], "is required for a logo whose URL has no image extension"),
    );
  }
  return { url: input.url, width, height, type, mimeValue };
}
