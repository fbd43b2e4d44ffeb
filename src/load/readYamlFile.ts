import { readFile } from "node:fs/promises";
import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument } from "yaml";
import { formatFieldPath, type InputProblem, type SourceRef } from "./inputProblem.js";
import { quickYamlValue } from "./quickYamlValue.js";

/** A parsed YAML file that can say where any of its values came from. */
export interface YamlFile {
  /** The path as shown in messages (relative to the working directory when given so). */
  file: string;
  value: unknown;
  /** Position of the value at `path`, or of its nearest existing parent. */
  locate(path: readonly PropertyKey[]): SourceRef;
  /** Position of the key that names `path`: where an unknown or misnamed field is shown. */
  locateKey(path: readonly PropertyKey[]): SourceRef;
  /**
   * Where the value at `path` is, as `locate` says, but looked up only when a message reads its
   * line or column: what the model keeps for each slot, most of which never appear in a message.
   */
  origin(path: readonly PropertyKey[]): SourceRef;
  /** A problem at the value at `path`. */
  error(path: readonly PropertyKey[], message: string): InputProblem;
  warning(path: readonly PropertyKey[], message: string): InputProblem;
  syntaxProblems: InputProblem[];
}

export async function readYamlFile(file: string): Promise<YamlFile> {
  return parseYamlText(file, await readFile(file, "utf8"));
}

/**
 * The value comes from the quick parser; the `yaml` Document, which knows positions and words the
 * syntax errors, is built only when the quick parser declines the file or a position is asked for:
 * in a valid data folder, never.
 */
export function parseYamlText(file: string, text: string): YamlFile {
  const quick = quickYamlValue(text);
  const positions = positionsIn(file, text);
  const syntaxProblems = quick ? [] : positions.syntaxProblems();
  return {
    file,
    value: quick ? quick.value : syntaxProblems.length ? undefined : positions.document().toJS(),
    locate: positions.locate,
    locateKey: positions.locateKey,
    origin: positions.origin,
    error: (path, message) => ({ ...positions.locate(path), severity: "error", message }),
    warning: (path, message) => ({ ...positions.locate(path), severity: "warning", message }),
    syntaxProblems,
  };
}

/** Positions in one file's text, from its `yaml` Document, parsed on first use. */
function positionsIn(file: string, text: string) {
  let parsed: { doc: Document.Parsed; lineCounter: LineCounter } | undefined;
  const parse = () => {
    if (!parsed) {
      const lineCounter = new LineCounter();
      const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
      parsed = { doc, lineCounter };
    }
    return parsed;
  };
  const at = (offset: number) => parse().lineCounter.linePos(offset);

  function syntaxProblems(): InputProblem[] {
    return parse().doc.errors.map((error) => {
      const { line, col } = at(error.pos[0]);
      const message =
        error.code === "DUPLICATE_KEY"
          ? `${keyTextAt(text, error.pos[0])} appears twice in the same mapping (YAML keys must be unique)`
          : `YAML syntax: ${error.message.split("\n")[0]}`;
      return { file, line, column: col, field: "", severity: "error", message };
    });
  }

  function locate(path: readonly PropertyKey[]): SourceRef {
    const { doc } = parse();
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

  function locateKey(path: readonly PropertyKey[]): SourceRef {
    const { doc } = parse();
    const parent = path.length > 1 ? doc.getIn(path.slice(0, -1) as unknown[], true) : doc.contents;
    const name = path[path.length - 1];
    if (isMap(parent)) {
      for (const pair of parent.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (isNode(pair.key) && pair.key.range && String(key) === String(name)) {
          const { line, col } = at(pair.key.range[0]);
          return { file, line, column: col, field: formatFieldPath(path) };
        }
      }
    }
    return locate(path);
  }

  /** Holds the text, not the value: a model keeps its origins for as long as it lives. */
  function origin(path: readonly PropertyKey[]): SourceRef {
    let found: SourceRef | undefined;
    const ref = () => {
      found ??= locate(path);
      return found;
    };
    return {
      file,
      get line() {
        return ref().line;
      },
      get column() {
        return ref().column;
      },
      get field() {
        return formatFieldPath(path);
      },
    };
  }

  return { document: () => parse().doc, syntaxProblems, locate, locateKey, origin };
}

/** The key written at `offset`, quoted for a message: `"start"`. */
function keyTextAt(text: string, offset: number): string {
  const key = /^("[^"\n]*"|'[^'\n]*'|[^:\n]*?)\s*:/.exec(text.slice(offset))?.[1] ?? "a key";
  return /^["']/.test(key) ? key : `"${key}"`;
}
