import type { Genre } from "../schema/fields.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";

/**
 * A service may have no genre (TS 102 818 §6.5, `genre minOccurs="0"` in spi_31.xsd), and many
 * real feeds have none: a warning, not an error, since a receiver that lists stations by genre
 * only shows less.
 */
export function checkServiceGenres(
  genres: readonly Genre[] | undefined,
  file: YamlFile,
  problems: InputProblem[],
) {
  if (genres !== undefined && genres.length > 0) return;
  problems.push(
    file.warning(
      ["genres"],
      `${genres === undefined ? "is not given" : "is empty"}: receivers that list stations by genre will not list this one`,
    ),
  );
}
