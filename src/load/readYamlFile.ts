import { readFile } from "node:fs/promises";
import { isNode, LineCounter, parseDocument } from "yaml";
import { formatFieldPath, type InputProblem, type SourceRef } from "./inputProblem.js";

/** A parsed YAML file that can say where any of its values came from. */
export interface YamlFile {
  /** The path as shown in messages (relative to the working directory when given so). */
  file: string;
  value: unknown;
  /** Position of the value at `path`, or of its nearest existing parent. */
  locate(path: readonly PropertyKey[]): SourceRef;
  syntaxProblems: InputProblem[];
}

export async function readYamlFile(file: string): Promise<YamlFile> {
  return parseYamlText(file, await readFile(file, "utf8"));
}

export function parseYamlText(file: string, text: string): YamlFile {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => lineCounter.linePos(offset);

  const syntaxProblems: InputProblem[] = doc.errors.map((error) => {
    const { line, col } = at(error.pos[0]);
    return { file, line, column: col, field: "", severity: "error", message: error.message.split("\n")[0] ?? "YAML syntax error" };
  });

  function locate(path: readonly PropertyKey[]): SourceRef {
    // Walk up until a node exists: a missing field is reported at its parent object.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = doc.getIn(path.slice(0, depth) as unknown[], true);
      if (isNode(node) && node.range) {
        const { line, col } = at(node.range[0]);
        return { file, line, column: col, field: formatFieldPath(path) };
      }
    }
    return { file, line: 1, column: 1, field: formatFieldPath(path) };
  }

  return { file, value: doc.errors.length ? undefined : doc.toJS(), locate, syntaxProblems };
}
