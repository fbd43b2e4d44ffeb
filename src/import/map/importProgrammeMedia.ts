import type { Genre, Show } from "../../load/inputSchema.js";
import { sameLanguage } from "../../load/languageTag.js";
import { imageMimeType } from "../../load/mediaType.js";
import type { FeedGenre, FeedImage } from "../read/feedModel.js";
import type { ImportNote } from "../importNote.js";

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
 * A genre needs a label in the data: one without gets its URN's last part, and a note. Its
 * label is published in the owner's language: one in another language is noted.
 */
export function importGenre(
  genre: FeedGenre,
  language: string,
  origin: string,
  notes: ImportNote[],
): Genre {
  if (genre.name !== undefined && !sameLanguage(genre.language, language)) {
    notes.push({
      origin,
      message: `genre label "${genre.name}" is in ${genre.language}: it is published in ${language}, the owner's language`,
    });
  }
  let name = genre.name;
  if (name === undefined) {
    name = genre.href.split(":").pop() ?? genre.href;
    notes.push({
      origin,
      message: `genre ${genre.href} has no label: labelled "${name}"; give it a name`,
    });
  }
  const type = genre.type === "secondary" || genre.type === "other" ? genre.type : undefined;
  return { href: genre.href, name, ...(type ? { type } : {}) };
}
