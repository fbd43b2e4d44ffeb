/**
 * The standard built-ins the rules use that njs 0.7 lacks: Array.from,
 * String.prototype.matchAll, Object.hasOwn. `njsPolyfills` makes them; `installNjsPolyfills`
 * puts each where the runtime has none (njs), and leaves a runtime that has it (Node, where the
 * tests compare them with the real ones) alone. Both are written into the nginx module as source
 * text: they refer to nothing outside themselves.
 */
export interface NjsPolyfills {
  arrayFrom: typeof Array.from;
  matchAll: (this: string, pattern: RegExp) => RegExpMatchArray[];
  hasOwn: (object: object, key: PropertyKey) => boolean;
}

export function njsPolyfills(): NjsPolyfills {
  function arrayFrom(source: unknown, map?: (value: unknown, index: number) => unknown): unknown[] {
    const items: unknown[] = [];
    const length = (source as { length?: unknown }).length;
    const iterate = (source as { [Symbol.iterator]?: () => Iterator<unknown> })[Symbol.iterator];
    // Arrays and typed arrays by index: njs iterates them some ten times slower.
    if (typeof length === "number" && typeof source !== "string") {
      for (let i = 0; i < length; i++) items.push((source as ArrayLike<unknown>)[i]);
    } else if (typeof iterate === "function") {
      const iterator = iterate.call(source);
      for (let step = iterator.next(); !step.done; step = iterator.next()) items.push(step.value);
    } else {
      const like = source as ArrayLike<unknown>;
      for (let i = 0; i < like.length; i++) items.push(like[i]);
    }
    return map === undefined ? items : items.map((value, index) => map(value, index));
  }

  function matchAll(this: string, pattern: RegExp): RegExpMatchArray[] {
    if (!pattern.global) throw new TypeError("matchAll needs a global regular expression");
    const copy = new RegExp(pattern.source, pattern.flags);
    const matches: RegExpMatchArray[] = [];
    for (let match = copy.exec(this); match !== null; match = copy.exec(this)) {
      matches.push(match);
      if (match[0] === "") copy.lastIndex++;
    }
    return matches;
  }

  function hasOwn(object: object, key: PropertyKey): boolean {
    // biome-ignore lint/suspicious/noPrototypeBuiltins: this stands in for Object.hasOwn, which njs lacks.
    return Object.prototype.hasOwnProperty.call(object, key);
  }

  return {
    arrayFrom: arrayFrom as typeof Array.from,
    matchAll,
    hasOwn,
  };
}

/** Each polyfill where the runtime lacks the built-in; returns the names it installed. */
export function installNjsPolyfills(made: NjsPolyfills): string[] {
  const installed: string[] = [];
  const put = (name: string, owner: Record<string, unknown>, key: string, value: unknown) => {
    if (owner[key] !== undefined) return;
    Object.defineProperty(owner, key, { value, writable: true, configurable: true });
    installed.push(name);
  };
  put("Array.from", Array as unknown as Record<string, unknown>, "from", made.arrayFrom);
  put(
    "String.prototype.matchAll",
    String.prototype as unknown as Record<string, unknown>,
    "matchAll",
    made.matchAll,
  );
  put("Object.hasOwn", Object as unknown as Record<string, unknown>, "hasOwn", made.hasOwn);
  return installed;
}
