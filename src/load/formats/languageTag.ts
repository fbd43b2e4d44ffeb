/**
 * Language tags compared as BCP 47 and xml:lang compare them: case-insensitively (de-CH is
 * de-ch), and a tag is within a language range when it is the range or starts with it and a
 * hyphen (de-CH is German; XPath's lang() reads xml:lang the same way).
 */
export function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function isWithinLanguage(tag: string, range: string): boolean {
  const lowerTag = tag.toLowerCase();
  const lowerRange = range.toLowerCase();
  return lowerTag === lowerRange || lowerTag.startsWith(`${lowerRange}-`);
}
