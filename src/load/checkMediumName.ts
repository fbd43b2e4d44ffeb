import type { InputProblem } from "./inputProblem.js";
import type { Names } from "./inputSchema.js";
import type { YamlFile } from "./readYamlFile.js";

/** SPI's mediumName limit; the render stage derives a missing one by cutting the long name. */
const MEDIUM_NAME_LENGTH = 16;

/**
 * A warning when the names at `path` have no medium name and the long one is too long to
 * stand in for it: what listeners see would be cut short with "…".
 */
export function checkMediumName(
  names: Names,
  file: YamlFile,
  path: PropertyKey[],
  problems: InputProblem[],
) {
  const length = Array.from(names.long).length;
  if (names.medium !== undefined || length <= MEDIUM_NAME_LENGTH) return;
  problems.push(
    file.warning(
      [...path, "medium"],
      `is not given, so the long name (${length} characters) is cut to ${MEDIUM_NAME_LENGTH} with "…" for mediumName`,
    ),
  );
}
