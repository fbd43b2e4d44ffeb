/**
 * Characters XML 1.0 cannot carry at all (its `Char` production): C0 controls other than tab,
 * line feed and carriage return, lone surrogates, U+FFFE and U+FFFF. YAML's double-quoted
 * escapes (`"\a"`, `"\x07"`, `"\ud800"`) let them into a string; a document holding one is not
 * well-formed, and a radio's parser rejects the whole file, so they are refused at load time.
 */
const NON_XML_CHARACTER = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

export interface NonXmlText {
  path: PropertyKey[];
  /** The first offending character as `U+0007`. */
  codePoint: string;
}

/** Every string in a parsed YAML value (keys included) that holds a character XML forbids. */
export function findNonXmlText(value: unknown, path: PropertyKey[] = []): NonXmlText[] {
  if (typeof value === "string") {
    const found = NON_XML_CHARACTER.exec(value)?.[0];
    return found === undefined ? [] : [{ path, codePoint: formatCodePoint(found) }];
  }
  if (Array.isArray(value))
    return value.flatMap((item, index) => findNonXmlText(item, [...path, index]));
  if (value !== null && typeof value === "object") {
    return Object.entries(value).flatMap(([key, item]) => [
      ...findNonXmlText(key, [...path, key]),
      ...findNonXmlText(item, [...path, key]),
    ]);
  }
  return [];
}

function formatCodePoint(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}
