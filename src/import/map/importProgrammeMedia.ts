import { genreHrefProblem, genreTermOf, refiledGenreHref } from "../../load/formats/genreTerm.js";
import { sameLanguage } from "../../load/formats/languageTag.js";
import { imageMimeType } from "../../load/formats/mediaType.js";
import type { Genre } from "../../load/schema/fields.js";
import type { Show } from "../../load/schema/showSchema.js";
import type { ImportNote } from "../importNote.js";
import type { FeedGenre, FeedImage } from "../read/feedModel.js";

/** Programme images and genres as the data holds them. */

/** An image needs its size, and a media type its URL's extension or its mimeValue gives. */
export function importImage(image: FeedImage, notes: ImportNote[]): NonNullable<Show["images"]> {
  if (image.width === undefined || image.height === undefined) {
    notes.push({
      origin: image.origin,
      message: `image ${image.url} without width and height is not imported (a programme image needs its size)`,
    });
    return [];
  }
  const mimeValue = image.mimeValue ?? imageMimeType(image.url);
  if (mimeValue === undefined) {
    notes.push({
      origin: image.origin,
      message: `image ${image.url} names no media type and its URL has no image extension: not imported`,
    });
    return [];
  }
  return [
    {
      url: image.url,
      size: `${image.width}x${image.height}`,
      ...(mimeValue !== imageMimeType(image.url) ? { mimeValue } : {}),
    },
  ];
}

/**
 * A genre as the data holds it: none (and a note) when no scheme's list holds its term, filed
 * under the scheme that does (and a note) when the feed names another. One without a label is
 * published with its scheme's label (render/spiElements.ts); one in another language is noted.
 */
export function importGenre(
  genre: FeedGenre,
  language: string,
  origin: string,
  notes: ImportNote[],
): Genre[] {
  const problem = genreHrefProblem(genre.href);
  const href = problem === undefined ? genre.href : refiledGenreHref(genre.href);
  if (href === undefined) {
    notes.push({ origin, message: `genre ${problem}: not imported` });
    return [];
  }
  if (href !== genre.href) {
    notes.push({
      origin,
      message: `genre ${genre.href} names a term of another scheme: imported as ${href}`,
    });
  }
  if (genre.name !== undefined && !sameLanguage(genre.language, language)) {
    notes.push({
      origin,
      message: `genre label "${genre.name}" is in ${genre.language}: it is published in ${language}, the owner's language`,
    });
  }
  if (genre.name === undefined) {
    notes.push({
      origin,
      message: `genre ${href} has no label: published with its scheme's, "${genreTermOf(href)?.label}"`,
    });
  }
  const type = genre.type === "secondary" || genre.type === "other" ? genre.type : undefined;
  return [
    { href, ...(genre.name !== undefined ? { name: genre.name } : {}), ...(type ? { type } : {}) },
  ];
}
