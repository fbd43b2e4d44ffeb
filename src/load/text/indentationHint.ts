/**
 * What a YAML indentation error most likely means, worded for someone editing the file: the
 * parser's "All mapping items must start at the same column" does not say which column. The
 * line at `offset` is compared with the blocks still open above it.
 */
export function indentationHint(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lines = text.slice(0, lineStart).split("\n");
  const lineEnd = text.indexOf("\n", lineStart);
  const line = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const indent = indentOf(line);
  if (indent === undefined) return undefined;
  // The indentation of each block still open at this line, outermost first.
  const open: number[] = [];
  for (const above of lines) {
    const depth = indentOf(above);
    if (depth === undefined) continue;
    while (open.length > 0 && (open.at(-1) as number) > depth) open.pop();
    if (open.at(-1) !== depth) open.push(depth);
    // The fields of a list item (`- days: daily`) line up after its dash.
    const item = /^ *- +(?=[^\s#])/.exec(above)?.[0].length;
    if (item !== undefined) open.push(item);
  }
  if (open.includes(indent)) return undefined;
  const levels = open.map((depth) => `${depth}`).join(", ");
  return `this line is indented by ${indent} space${indent === 1 ? "" : "s"}, the blocks above it by ${levels}: indent it exactly as far as the fields it belongs with (spaces, not tabs)`;
}

/** Leading spaces of a line with content, or undefined for a blank or comment line. */
function indentOf(line: string): number | undefined {
  const content = line.search(/[^ ]/);
  if (content === -1 || line[content] === "#") return undefined;
  return content;
}

/**
 * The hint for yaml's "Nested mappings are not allowed in compact mappings", reported on a
 * field's value when the next line, a field indented deeper than this one, was meant as its
 * neighbour.
 */
export function deeperFieldHint(text: string, offset: number): string | undefined {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const lines = text.slice(lineStart).split("\n");
  const indent = indentOf(lines[0] ?? "");
  const next = lines.slice(1).find((line) => indentOf(line) !== undefined);
  const nextIndent = next === undefined ? undefined : indentOf(next);
  if (indent === undefined || nextIndent === undefined || nextIndent <= indent) return undefined;
  if (!/^ *[^\s#-][^:]*:( |$)/.test(next ?? "")) return undefined;
  return `the next line is indented by ${nextIndent} spaces, deeper than this one's ${indent}: a field of the same mapping lines up with it`;
}
