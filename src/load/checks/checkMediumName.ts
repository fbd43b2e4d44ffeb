import { NAME_LENGTHS } from "../formats/spiFormat.js";
import type { Names } from "../schema/fields.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";

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
  if (names.medium !== undefined || length <= NAME_LENGTHS.medium) return;
  problems.push(
    file.warning(
      [...path, "medium"],
      `is not given, so the long name (${length} characters) is cut to ${NAME_LENGTHS.medium} with "…" for mediumName`,
    ),
  );
}
