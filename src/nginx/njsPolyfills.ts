/**
 * The standard built-ins the rules (and Babel's helpers) use that njs 0.7 lacks: Map, Set,
 * Array.from, String.prototype.matchAll, Object.fromEntries. `njsPolyfills` makes them;
 * `installNjsPolyfills` puts each where the runtime has none (njs), and leaves a runtime that
 * has it (Node, where the tests compare them with the real ones) alone. Both are written into
 * the nginx module as source text: they refer to nothing outside themselves.
 */
export interface NjsPolyfills {
  Map: MapConstructor;
  Set: SetConstructor;
  arrayFrom: typeof Array.from;
  matchAll: (this: string, pattern: RegExp) => RegExpMatchArray[];
  fromEntries: typeof Object.fromEntries;
}

export function njsPolyfills(): NjsPolyfills {
  /** Keys in insertion order; strings also in a dictionary, the rules' only keys at scale. */
  class KeyList<V> {
    keys: unknown[] = [];
    values: V[] = [];
    private strings: Record<string, number> = Object.create(null);

    indexOf(key: unknown): number {
      if (typeof key === "string") return this.strings[key] ?? -1;
      for (let i = 0; i < this.keys.length; i++) {
        const other = this.keys[i];
        if (other === key || (Number.isNaN(other) && Number.isNaN(key))) return i;
      }
      return -1;
    }

    put(key: unknown, value: V): void {
      const index = this.indexOf(key);
      if (index !== -1) {
        this.values[index] = value;
        return;
      }
      if (typeof key === "string") this.strings[key] = this.keys.length;
      this.keys.push(key);
      this.values.push(value);
    }

    remove(key: unknown): boolean {
      const index = this.indexOf(key);
      if (index === -1) return false;
      this.keys.splice(index, 1);
      this.values.splice(index, 1);
      this.strings = Object.create(null);
      this.keys.forEach((k, i) => {
        if (typeof k === "string") this.strings[k] = i;
      });
      return true;
    }
  }

  function entriesOf(iterable: unknown): unknown[] {
    if (iterable === undefined || iterable === null) return [];
    // An array is copied natively, not element by element (njs: far faster).
    return Array.isArray(iterable) ? iterable.slice() : arrayFrom(iterable as ArrayLike<unknown>);
  }

  /** SameValueZero, as Map and Set compare keys. */
  function same(a: unknown, b: unknown): boolean {
    return a === b || (Number.isNaN(a) && Number.isNaN(b));
  }

  /**
   * Built lazily: njs runs the module (and so the rules' `new Map(...)` of every bearer) again
   * for each request, which mostly asks one key or none. Until something changes or lists the
   * map, the entries it was made from are searched as they are.
   */
  class PolyMap<K, V> {
    private list = new KeyList<V>();
    private pending: [K, V][] | null;

    constructor(entries?: Iterable<[K, V]>) {
      this.pending = entriesOf(entries) as [K, V][];
    }

    private settled(): KeyList<V> {
      const pending = this.pending;
      if (pending !== null) {
        this.pending = null;
        for (let i = 0; i < pending.length; i++) {
          const entry = pending[i] as [K, V];
          this.list.put(entry[0], entry[1]);
        }
      }
      return this.list;
    }

    /** The pending entry for `key` (the last one, as building the map would keep), or -1. */
    private pendingIndex(key: K): number {
      const pending = this.pending as [K, V][];
      for (let i = pending.length - 1; i >= 0; i--) {
        if (same((pending[i] as [K, V])[0], key)) return i;
      }
      return -1;
    }

    get size(): number {
      return this.settled().keys.length;
    }

    get(key: K): V | undefined {
      if (this.pending !== null) {
        const index = this.pendingIndex(key);
        return index === -1 ? undefined : (this.pending[index] as [K, V])[1];
      }
      const index = this.list.indexOf(key);
      return index === -1 ? undefined : this.list.values[index];
    }

    set(key: K, value: V): this {
      this.settled().put(key, value);
      return this;
    }

    has(key: K): boolean {
      if (this.pending !== null) return this.pendingIndex(key) !== -1;
      return this.list.indexOf(key) !== -1;
    }

    delete(key: K): boolean {
      return this.settled().remove(key);
    }

    clear(): void {
      this.pending = null;
      this.list = new KeyList<V>();
    }

    forEach(callback: (value: V, key: K, map: PolyMap<K, V>) => void): void {
      this.entries().forEach((entry) => {
        callback(entry[1], entry[0], this);
      });
    }

    keys(): K[] {
      return this.settled().keys.slice() as K[];
    }

    values(): V[] {
      return this.settled().values.slice();
    }

    entries(): [K, V][] {
      const list = this.settled();
      return list.keys.map((key, i) => [key as K, list.values[i] as V]);
    }

    [Symbol.iterator]() {
      return this.entries()[Symbol.iterator]();
    }
  }

  /** A map of each value to itself, its values pending as the map's entries are. */
  class PolySet<T> {
    private readonly map = new PolyMap<T, T>();
    private pending: T[] | null;

    constructor(values?: Iterable<T>) {
      this.pending = entriesOf(values) as T[];
    }

    private settled(): PolyMap<T, T> {
      const pending = this.pending;
      if (pending !== null) {
        this.pending = null;
        for (let i = 0; i < pending.length; i++) this.map.set(pending[i] as T, pending[i] as T);
      }
      return this.map;
    }

    get size(): number {
      return this.settled().size;
    }

    add(value: T): this {
      this.settled().set(value, value);
      return this;
    }

    has(value: T): boolean {
      const pending = this.pending;
      if (pending === null) return this.map.has(value);
      return pending.indexOf(value) !== -1 || (Number.isNaN(value) && pending.some(Number.isNaN));
    }

    delete(value: T): boolean {
      return this.settled().delete(value);
    }

    forEach(callback: (value: T, again: T, set: PolySet<T>) => void): void {
      this.values().forEach((value) => {
        callback(value, value, this);
      });
    }

    values(): T[] {
      return this.settled().keys();
    }

    [Symbol.iterator]() {
      return this.values()[Symbol.iterator]();
    }
  }

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

  function fromEntries(entries: Iterable<readonly [PropertyKey, unknown]>) {
    const object: Record<PropertyKey, unknown> = {};
    for (const entry of arrayFrom(entries) as [PropertyKey, unknown][]) object[entry[0]] = entry[1];
    return object;
  }

  return {
    Map: PolyMap as unknown as MapConstructor,
    Set: PolySet as unknown as SetConstructor,
    arrayFrom: arrayFrom as typeof Array.from,
    matchAll,
    fromEntries: fromEntries as typeof Object.fromEntries,
  };
}

/** Each polyfill where the runtime lacks the built-in; returns the names it installed. */
export function installNjsPolyfills(made: NjsPolyfills): string[] {
  const installed: string[] = [];
  const scope = globalThis as Record<string, unknown>;
  const put = (name: string, owner: Record<string, unknown>, key: string, value: unknown) => {
    if (owner[key] !== undefined) return;
    Object.defineProperty(owner, key, { value, writable: true, configurable: true });
    installed.push(name);
  };
  put("Map", scope, "Map", made.Map);
  put("Set", scope, "Set", made.Set);
  put("Array.from", Array as unknown as Record<string, unknown>, "from", made.arrayFrom);
  put(
    "String.prototype.matchAll",
    String.prototype as unknown as Record<string, unknown>,
    "matchAll",
    made.matchAll,
  );
  put(
    "Object.fromEntries",
    Object as unknown as Record<string, unknown>,
    "fromEntries",
    made.fromEntries,
  );
  return installed;
}
