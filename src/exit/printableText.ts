/**
 * Text from the data, a feed or a file name on its way to a terminal: ids, field names and
 * values can hold ESC, BEL or a line break (`\e[2J` clears the screen, `\e]0;…\a` retitles the
 * window, a newline forges a line of output). Each such character is written as its escape
 * (`\n`, `\u001b`), which is also what it means inside a JSON string, so `--json` output stays
 * valid and unchanged in meaning. Also escaped: DEL, the C1 controls (U+009B acts as ESC [ in
 * some terminals), and the bidirectional overrides and line separators that reorder or break
 * what a reader sees.
 */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const CONTROL_BUT_LINE_BREAKS = /(?![\n\t])[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeSequence(character: string): string {
  return NAMED[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** One value inside a line of output (an id, a path, a message): every control character escaped. */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeSequence);
}

/**
 * Whole lines on their way to stdout or stderr: the line breaks (and tabs) between them are the
 * program's own and stay; every other control character is escaped, whoever put it there.
 */
export function printableLines(text: string): string {
  return text.replace(CONTROL_BUT_LINE_BREAKS, escapeSequence);
}
