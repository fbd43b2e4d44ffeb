import {
  type Alias,
  type Document,
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  type Pair,
  parseDocument,
  type Scalar,
  visit,
  type YAMLMap,
  type YAMLSeq,
} from "yaml";
import { debug } from "../../debug/debugLog.js";
import { deeperFieldHint, indentationHint } from "./indentationHint.js";
import { formatFieldPath, type InputProblem, type SourceRef } from "./inputProblem.js";
import { type LinePosition, linePositions } from "./linePositions.js";
import { type QuickYaml, quickYamlValue } from "./quickYamlValue.js";

/**
 * How many anchored values aliases may stand for in one file, counted as `yaml` counts (an alias
 * of a list of aliases counts them all): `yaml`'s own default, a bound on what a file expands to.
 */
const MAX_ALIAS_USES = 100;

/** A parsed YAML file that can say where any of its values came from. */
export interface YamlFile {
  /** The path as shown in messages (relative to the working directory when given so). */
  file: string;
  value: unknown;
  /**
   * Position of the value at `path`, or of its nearest existing parent, as `yaml` gives it. For
   * a mapping or list the quick parser's offsets say it without building the `yaml` Document:
   * the model keeps one for every slot.
   */
  locate(path: readonly PropertyKey[]): SourceRef;
  /** Position of the key that names `path`: where an unknown or misnamed field is shown. */
  locateKey(path: readonly PropertyKey[]): SourceRef;
  /**
   * The same position as `locate`, for the model to keep as an entry's origin: a file known from
   * the input cache is parsed only if a message reads one of its fields.
   */
  locateLater(path: readonly PropertyKey[]): SourceRef;
  /** A problem at the value at `path`. */
  error(path: readonly PropertyKey[], message: string): InputProblem;
  warning(path: readonly PropertyKey[], message: string): InputProblem;
  syntaxProblems: InputProblem[];
}

/**
 * A file whose validated value is known without parsing it (from the input cache, or from a parse
 * worker): its text is parsed here only if a later check asks where something is in it.
 */
export function lazyYamlFile(file: string, textOf: () => string): YamlFile {
  let parsed: YamlFile | undefined;
  const parse = () => {
    parsed ??= parseYamlText(file, textOf());
    return parsed;
  };
  return {
    file,
    get value() {
      return parse().value;
    },
    locate: (path) => parse().locate(path),
    locateKey: (path) => parse().locateKey(path),
    locateLater: (path) => originLocatedLater(path, (at) => parse().locate(at)),
    error: (path, message) => parse().error(path, message),
    warning: (path, message) => parse().warning(path, message),
    syntaxProblems: [],
  };
}

const WHERE = Symbol("where");
interface Where {
  path: readonly PropertyKey[];
  locate: (path: readonly PropertyKey[]) => SourceRef;
  located?: SourceRef;
}
type LaterOrigin = SourceRef & { [WHERE]: Where };

function located(origin: LaterOrigin): SourceRef {
  const where = origin[WHERE];
  where.located ??= where.locate(where.path);
  return where.located;
}

/**
 * Own enumerable getters, so a spread (`{ ...origin, field }`) reads them too; shared by every
 * origin, so each costs two small objects and no closures (the model holds one per episode).
 */
const LATER_ORIGIN: PropertyDescriptorMap = Object.fromEntries(
  (["file", "line", "column", "field"] as const).map((key) => [
    key,
    {
      enumerable: true,
      get(this: LaterOrigin) {
        return located(this)[key];
      },
    },
  ]),
);

/** An origin located the first time a message reads it. */
function originLocatedLater(
  path: readonly PropertyKey[],
  locate: (path: readonly PropertyKey[]) => SourceRef,
): SourceRef {
  const origin = Object.defineProperties({}, LATER_ORIGIN);
  // A copy of its exact length: a path made by spreading (`[...base, i]`) has room for 17
  // elements, and the model keeps its origins for the whole build (specials, dated days and
  // events at once; a slot's or an episode's once a message read it).
  const where: Where = { path: path.slice(), locate };
  Object.defineProperty(origin, WHERE, { value: where });
  return origin as SourceRef;
}

/**
 * The value comes from the quick parser; the `yaml` Document, which knows positions and words the
 * syntax errors, is built only when the quick parser declines the file or a position is asked for:
 * in a valid data folder, never.
 */
export function parseYamlText(file: string, text: string): YamlFile {
  const quick = quickYamlValue(text, (reason) =>
    debug("load", () => `${file}: read by yaml, not the quick reader: ${reason}`),
  );
  const positions = positionsIn(file, text);
  const syntaxProblems = quick ? [] : positions.syntaxProblems();
  let value = quick?.value;
  if (!quick && syntaxProblems.length === 0) {
    try {
      value = positions.document().toJS({ maxAliasCount: MAX_ALIAS_USES });
    } catch (error) {
      // yaml throws (a ReferenceError without a position) when aliases expand past the limit.
      if (!(error instanceof ReferenceError)) throw error;
      syntaxProblems.push(positions.aliasLimitProblem());
    }
  }
  // Lines as `yaml`'s LineCounter counts them; not for a text with a lone CR, which YAML reads
  // as a line break too (`yaml` then decides).
  let lines: ((offset: number) => LinePosition) | null | undefined;
  const locate = (path: readonly PropertyKey[]): SourceRef => {
    const offset = quick && startOf(quick, path);
    if (offset !== undefined) lines ??= /\r(?!\n)/.test(text) ? null : linePositions(text);
    if (offset === undefined || !lines) return positions.locate(path);
    return { file, ...lines(offset), field: formatFieldPath(path) };
  };
  return {
    file,
    value,
    locate,
    locateKey: positions.locateKey,
    locateLater: locate,
    error: (path, message) => ({ ...locate(path), severity: "error", message }),
    warning: (path, message) => ({ ...locate(path), severity: "warning", message }),
    syntaxProblems,
  };
}

interface Parsed {
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** Positions in one file's text, from its `yaml` Document, parsed on first use. */
function positionsIn(file: string, text: string) {
  let parsed: Parsed | undefined;
  /** `need` says what the Document is built for: the debug channel shows it. */
  const parse = (need: () => string) => {
    if (!parsed) {
      debug("load", () => `${file}: yaml's Document built for ${need()}`);
      const lineCounter = new LineCounter();
      const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
      parsed = { doc, lineCounter };
    }
    return parsed;
  };
  const at = (offset: number) => parse(() => "a position").lineCounter.linePos(offset);

  // Each mapping's keys, indexed on first use: a file with 100k shows and a warning for each is
  // located in linear time (yaml's getIn searches a mapping's pairs one by one).
  const pairIndex = new WeakMap<YAMLMap, Map<string, Pair>>();
  function pairIn(map: YAMLMap, name: PropertyKey): Pair | undefined {
    let index = pairIndex.get(map);
    if (!index) {
      index = new Map();
      for (const pair of map.items as Pair[]) {
        const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
        if (!index.has(key)) index.set(key, pair);
      }
      pairIndex.set(map, index);
    }
    return index.get(String(name));
  }

  /** The node at `path`, as `doc.getIn(path, true)` finds it; aliases are not followed. */
  function nodeAt(path: readonly PropertyKey[]): unknown {
    let node: unknown = parse(() => "a position").doc.contents;
    for (const key of path) {
      if (isMap(node)) node = pairIn(node, key)?.value;
      else if (isSeq(node) && typeof key === "number") node = node.items[key];
      else return undefined;
    }
    return node;
  }

  function locate(path: readonly PropertyKey[]): SourceRef {
    parse(() => `the position of ${formatFieldPath(path) || "the document"}`);
    // Walk up until a node exists: a missing field is reported at its parent object.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = nodeAt(path.slice(0, depth));
      if (isNode(node) && node.range) {
        const { line, col } = at(node.range[0]);
        return { file, line, column: col, field: formatFieldPath(path) };
      }
    }
    return { file, line: 1, column: 1, field: formatFieldPath(path) };
  }

  function locateKey(path: readonly PropertyKey[]): SourceRef {
    parse(() => `the position of the key ${formatFieldPath(path)}`);
    const parent = nodeAt(path.slice(0, -1));
    const pair = isMap(parent) ? pairIn(parent, path[path.length - 1] as PropertyKey) : undefined;
    if (isNode(pair?.key) && pair.key.range) {
      const { line, col } = at(pair.key.range[0]);
      return { file, line, column: col, field: formatFieldPath(path) };
    }
    return locate(path);
  }

  return {
    document: () => parse(() => "its value").doc,
    syntaxProblems: () =>
      syntaxProblemsIn(
        file,
        text,
        parse(() => "its syntax errors"),
      ),
    aliasLimitProblem: () =>
      aliasLimitProblemIn(
        file,
        parse(() => "its aliases"),
      ),
    locate,
    locateKey,
  };
}

/** yaml's syntax errors, repeated keys and aliases before their anchors, each at its spot. */
function syntaxProblemsIn(
  file: string,
  text: string,
  { doc, lineCounter }: Parsed,
): InputProblem[] {
  const problem = (offset: number, message: string): InputProblem => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, column: col, field: "", severity: "error", message };
  };
  const problems = doc.errors.map((error) =>
    problem(
      error.pos[0],
      error.code === "MULTIPLE_DOCS"
        ? "YAML syntax: a second document starts here; a data file holds one (remove the --- or ... line)"
        : `YAML syntax: ${error.message.split("\n")[0]}${withHint(indentationHintFor(error.code, text, error.pos[0]))}`,
    ),
  );
  // One pass in document order, where yaml would search again for every key and every alias:
  // a key equal to an earlier one of its mapping (yaml's uniqueKeys test, which is quadratic),
  // and an alias before its anchor (which yaml parses, and throws at only when building).
  const anchors = new Set<string>();
  const anchor = (_: unknown, node: Scalar | YAMLSeq) => {
    if (node.anchor) anchors.add(node.anchor);
  };
  visit(doc, {
    Scalar: anchor,
    Seq: anchor,
    Map(_, map) {
      if (map.anchor) anchors.add(map.anchor);
      const keys = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (keys.has(key.value) && key.range) {
          problems.push(
            problem(
              key.range[0],
              `${keyTextAt(text, key.range[0])} appears twice in the same mapping (YAML keys must be unique)`,
            ),
          );
        }
        keys.add(key.value);
      }
    },
    Alias(_, alias) {
      if (alias.range && !anchors.has(alias.source)) {
        problems.push(
          problem(
            alias.range[0],
            `YAML syntax: *${alias.source} refers to no anchor (&${alias.source} must come before it)`,
          ),
        );
      }
    },
  });
  return problems;
}

/** At the first alias: yaml counts every use of an anchored value, the nested ones too. */
function aliasLimitProblemIn(file: string, { doc, lineCounter }: Parsed): InputProblem {
  const aliases: Alias[] = [];
  visit(doc, {
    Alias(_, alias) {
      aliases.push(alias);
    },
  });
  const [first] = aliases;
  const { line, col } = lineCounter.linePos(first?.range?.[0] ?? 0);
  return {
    file,
    line,
    column: col,
    field: "",
    severity: "error",
    message:
      `YAML aliases: *${first?.source ?? ""} here is the first of ${aliases.length}, which together ` +
      `stand for more than ${MAX_ALIAS_USES} anchored values, the most spi-static expands ` +
      "(the limit that stops alias bombs); write the values out instead",
  };
}

/** What yaml's error most likely means when it comes from a line indented unlike its block. */
function indentationHintFor(code: string, text: string, offset: number): string | undefined {
  if (code === "BAD_INDENT" || code === "MISSING_CHAR") return indentationHint(text, offset);
  if (code === "BLOCK_AS_IMPLICIT_KEY") return deeperFieldHint(text, offset);
  return undefined;
}

function withHint(hint: string | undefined): string {
  return hint === undefined ? "" : `; ${hint}`;
}

/** The key written at `offset`, quoted for a message: `"start"`. */
function keyTextAt(text: string, offset: number): string {
  const key = /^("[^"\n]*"|'[^'\n]*'|[^:\n]*?)\s*:/.exec(text.slice(offset))?.[1] ?? "a key";
  return /^["']/.test(key) ? key : `"${key}"`;
}

/** The offset of the collection at `path`, when the quick parser knows it for every step. */
function startOf({ value, starts }: QuickYaml, path: readonly PropertyKey[]): number | undefined {
  let node = value;
  for (const key of path) {
    if (typeof node !== "object" || node === null || !starts.has(node)) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return typeof node === "object" && node !== null ? starts.get(node) : undefined;
}
