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
export function findNonXmlText(value: unknown): NonXmlText[] {
  const found: NonXmlText[] = [];
  // One path, grown and shrunk on the way: copied only for a finding, as most values have none.
  const path: PropertyKey[] = [];
  const check = (text: string) => {
    const codePoint = nonXmlCharacterIn(text);
    if (codePoint !== undefined) found.push({ path: [...path], codePoint });
  };
  const visit = (node: unknown) => {
    if (typeof node === "string") check(node);
    else if (Array.isArray(node)) {
      node.forEach((item, index) => {
        path.push(index);
        visit(item);
        path.pop();
      });
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        path.push(key);
        check(key);
        visit(item);
        path.pop();
      }
    }
  };
  visit(value);
  return found;
}

/** The first character of `text` that XML forbids, as `U+0007`; import's XML reader refuses it too. */
export function nonXmlCharacterIn(text: string): string | undefined {
  const character = NON_XML_CHARACTER.exec(text)?.[0];
  if (character === undefined) return undefined;
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}
