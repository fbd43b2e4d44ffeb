import { isWithinLanguage, sameLanguage } from "../load/formats/languageTag.js";
import type { Description, Link, Names, Translations } from "../load/model/broadcaster.js";

/** What a provider, service or show writes in its own language, beside its translations. */
export interface OwnTexts {
  readonly name?: Names | undefined;
  readonly description?: Description | undefined;
  readonly keywords?: readonly string[] | undefined;
  readonly links?: readonly Link[] | undefined;
  readonly translations?: Translations | undefined;
}

/** One language's texts of an owner, with the xml:lang its elements carry in the document. */
export interface TextVersion {
  readonly language: string;
  /** `{}` in the document's language (the elements inherit it), else `{ "xml:lang": tag }`. */
  readonly lang: Readonly<Record<string, string>>;
  readonly name: Partial<Names> | undefined;
  readonly description: Description | undefined;
  readonly keywords: readonly string[];
  readonly links: readonly Link[];
}

/**
 * An owner's texts in each of its languages, as a document in `documentLanguage` publishes
 * them: the version in the document's language first (the one a receiver falls back on, and
 * the one TS 102 818 §5.6 asks names in), then the owner's own language, then its translations
 * in the order written. Only a version in exactly the document's language goes untagged.
 */
export function textVersions(
  own: OwnTexts,
  ownLanguage: string,
  documentLanguage: string,
): TextVersion[] {
  const version = (
    language: string,
    texts: Omit<OwnTexts, "translations" | "name"> & { name?: Partial<Names> | undefined },
  ): TextVersion => ({
    language,
    lang: sameLanguage(language, documentLanguage) ? {} : { "xml:lang": language },
    name: texts.name,
    description: texts.description,
    keywords: texts.keywords ?? [],
    links: texts.links ?? [],
  });
  const versions = [
    version(ownLanguage, own),
    ...Object.entries(own.translations ?? {}).map(([language, texts]) => version(language, texts)),
  ];
  const exact = versions.findIndex((v) => sameLanguage(v.language, documentLanguage));
  const first =
    exact >= 0 ? exact : versions.findIndex((v) => isWithinLanguage(v.language, documentLanguage));
  if (first <= 0) return versions;
  return [versions[first] as TextVersion, ...versions.filter((_, i) => i !== first)];
}
