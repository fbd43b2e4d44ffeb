/**
 * Babel's options for njs 0.7 (Debian 12's): every syntax transform (njs parses little past
 * ES5: no destructuring, spread, for-of, optional chaining, classes, `s` flag), but not async
 * functions: njs runs them, and cannot compile Babel's generator runtime.
 */
const NJS_BABEL_OPTIONS = {
  sourceType: "module",
  assumptions: {
    // njs cannot compile a `return` inside a loop inside try/finally, which iterator closing needs.
    skipForOfIteratorClosing: true,
    // njs runs the whole module again for every request (njs 0.7 keeps no state between them):
    // plain assignments instead of property descriptors and checks keep that run short.
    setClassMethods: true,
    setPublicClassFields: true,
    noClassCalls: true,
    setSpreadProperties: true,
    noDocumentAll: true,
  },
  comments: false,
  presets: [
    [
      "env",
      {
        forceAllTransforms: true,
        modules: false,
        exclude: ["transform-async-to-generator", "transform-regenerator"],
      },
    ],
  ],
};

/**
 * `[^]` (any character, how Babel writes the `s` flag's dot) in a regular expression outside a
 * class, as PCRE (njs's regular expressions) spells it: `[\s\S]`.
 */
export function pcreAnyCharacter(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "\\") {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (!inClass && pattern.startsWith("[^]", i)) {
      out += "[\\s\\S]";
      i += 2;
    } else {
      if (char === "[") inClass = true;
      else if (char === "]") inClass = false;
      out += char;
    }
  }
  return out;
}

interface BabelPath {
  node: object;
  key: string | number | null;
  listKey?: string | undefined;
  parentPath: BabelPath | null;
  scope: { generateUidIdentifier(name: string): object };
  isFunction(): boolean;
  isStatement(): boolean;
  isLoop(): boolean;
  isCallExpression(): boolean;
  isNewExpression(): boolean;
  isConditionalExpression(): boolean;
  isLogicalExpression(): boolean;
  getStatementParent(): BabelPath | null;
  insertBefore(node: object): void;
  replaceWith(node: object): void;
}

interface BabelTypes {
  variableDeclaration(kind: "var", declarations: object[]): object;
  variableDeclarator(id: object, init: object): object;
}

/**
 * njs refuses `await` inside the arguments of a call (`new Uint8Array(await digest)`): such an
 * await moves into a variable just before its statement, where it ran first anyway. Where that
 * would change whether or how often it runs (one side of `?:`, `&&`, `||`, a loop's test) the
 * generator stops with an error rather than write a module that answers differently.
 */
function hoistAwaitsOutOfArguments({ types: t }: { types: BabelTypes }) {
  return {
    visitor: {
      AwaitExpression(path: BabelPath) {
        let inArguments = false;
        for (let at = path; at.parentPath && !at.isStatement(); at = at.parentPath) {
          const parent = at.parentPath;
          if (parent.isFunction()) return;
          if ((parent.isCallExpression() || parent.isNewExpression()) && at.listKey === "arguments")
            inArguments = true;
          const conditional =
            (parent.isConditionalExpression() && at.key !== "test") ||
            (parent.isLogicalExpression() && at.key === "right");
          if (inArguments && conditional) throw new Error(NJS_AWAIT_PROBLEM);
        }
        if (!inArguments) return;
        const statement = path.getStatementParent();
        if (statement === null || statement.isLoop()) throw new Error(NJS_AWAIT_PROBLEM);
        const id = path.scope.generateUidIdentifier("awaited");
        statement.insertBefore(t.variableDeclaration("var", [t.variableDeclarator(id, path.node)]));
        path.replaceWith(id);
      },
    },
  };
}

const NJS_AWAIT_PROBLEM =
  "the edge rules await inside a call's arguments where njs cannot run it: in a condition or a loop test";

/** A second pass over Babel's output, for what njs's parser refuses in plain ES5 plus async. */
const NJS_PASS = {
  sourceType: "module",
  plugins: [
    hoistAwaitsOutOfArguments,
    {
      visitor: {
        // The `s` flag is gone by then; its `[^]` is left.
        RegExpLiteral(path: { node: { pattern: string } }) {
          path.node.pattern = pcreAnyCharacter(path.node.pattern);
        },
      },
    },
  ],
};

/** Module source in today's JavaScript, as njs 0.7 parses and runs it (both Babel passes). */
export async function lowerForNjs(source: string): Promise<string> {
  // Babel is a development dependency: the package ships the module lowered (njsModule.ts).
  const { transform } = await import("@babel/standalone");
  const code = transform(transform(source, NJS_BABEL_OPTIONS).code ?? "", NJS_PASS).code;
  if (!code) throw new Error("Babel returned no code for the njs module");
  return code;
}
