import { isWithinLanguage, sameLanguage } from "../formats/languageTag.js";
import type { Translations } from "../model/broadcaster.js";
import type { Names } from "../schema/fields.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";
import { checkMediumName } from "./checkMediumName.js";

/** A provider, service or show (or episode) with its texts in several languages. */
interface Owner {
  readonly name?: Names | undefined;
  readonly translations?: Translations | undefined;
}

/**
 * What an owner's `translations` (at `path` in `file`) needs beyond its schema: each language
 * once (tags compared case-insensitively: de-CH and de-ch are one) and none of them the owner's
 * own language, whose texts are the fields beside `translations`. A translated long name
 * without a medium one gets the same warning as the owner's.
 */
export function checkTranslations(
  owner: Owner,
  ownLanguage: string,
  what: string,
  file: YamlFile,
  path: readonly PropertyKey[],
  problems: InputProblem[],
) {
  const seen: string[] = [];
  for (const [language, translation] of Object.entries(owner.translations ?? {})) {
    const at = [...path, "translations", language];
    const earlier = seen.find((tag) => sameLanguage(tag, language));
    if (earlier !== undefined) {
      problems.push({
        ...file.locateKey(at),
        severity: "error",
        message: `is the language of translations.${earlier} again (tags ignore case); merge the two`,
      });
    } else if (sameLanguage(language, ownLanguage)) {
      problems.push({
        ...file.locateKey(at),
        severity: "error",
        message: `is ${what}'s own language (${ownLanguage}): write these texts in the fields beside translations`,
      });
    }
    seen.push(language);
    const long = translation.name?.long;
    if (long !== undefined) {
      checkMediumName({ ...translation.name, long }, file, [...at, "name"], problems);
    }
  }
}

/**
 * TS 102 818 §6.5: a service has at least one shortName and one mediumName in the SI document's
 * language, the provider's. A service in another language must give them as a translation;
 * a mediumName may be cut from the long name, as everywhere.
 */
export function checkServiceNamesInLanguage(
  service: Owner & { readonly language?: string | undefined },
  documentLanguage: string,
  file: YamlFile,
  problems: InputProblem[],
) {
  const ownLanguage = service.language ?? documentLanguage;
  if (isWithinLanguage(ownLanguage, documentLanguage)) return;
  const translated = Object.entries(service.translations ?? {}).filter(([language]) =>
    isWithinLanguage(language, documentLanguage),
  );
  const rule = `TS 102 818 §6.5 asks for a service's shortName and mediumName in the SI document's language, the provider's (${documentLanguage})`;
  const complete = translated.find(
    ([, t]) => t.name?.short !== undefined && (t.name.medium ?? t.name.long) !== undefined,
  );
  if (complete) return;
  const [language, translation] = translated[0] ?? [];
  if (language === undefined) {
    problems.push(
      file.error(
        ["language"],
        `is ${ownLanguage}, not the provider's ${documentLanguage}: ${rule}; give them as translations.${documentLanguage}.name (short and medium, the same names if they do not change)`,
      ),
    );
  } else if (translation?.name?.short === undefined) {
    problems.push(file.error(["translations", language, "name", "short"], `is required: ${rule}`));
  } else {
    problems.push(
      file.error(
        ["translations", language, "name", "medium"],
        `is required (or a long name to cut it from): ${rule}`,
      ),
    );
  }
}
