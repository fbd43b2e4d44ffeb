import { isWithinLanguage } from "../load/formats/languageTag.js";

/** "Website" in the languages of the broadcasters spi-static was made for first. */
const WEBSITE_LABELS: readonly (readonly [language: string, label: string])[] = [
  ["en", "Website"],
  ["de", "Webseite"],
  ["fr", "Site web"],
  ["it", "Sito web"],
  ["es", "Sitio web"],
  ["nl", "Website"],
];

/**
 * The description of the link a show's `website` becomes, in the document's language; undefined
 * in a language not known here, so that a link is never labelled in a language it is not in.
 */
export function websiteLabel(documentLanguage: string): string | undefined {
  return WEBSITE_LABELS.find(([language]) => isWithinLanguage(documentLanguage, language))?.[1];
}
