import {
  type AliasEvent,
  EVENT_ID,
  type Event,
  getScalarValue,
  type MappingEvent,
  parseEvents,
  SCALAR_STYLE,
  type ScalarEvent,
  type SequenceEvent,
} from "js-yaml";
import { isScalar, type ScalarTag, Schema } from "yaml";

/**
 * The value of a YAML file the way `yaml`'s `parseDocument(text).toJS()` gives it, found about
 * four times faster: js-yaml's event parser reads the structure and the strings, and each plain
 * scalar is typed by `yaml`'s own core schema tags, so a number, boolean or null is whatever
 * `yaml` would make of it. Undefined whenever the file holds anything this path does not take
 * on itself: a syntax error, a duplicate or non-text key, tags, directives, other than one
 * document, a document that is not a mapping or a list, an implicit key over `yaml`'s
 * 1024-character limit, aliases beyond the simple reuse of an anchored value. The `yaml`
 * Document then decides, with its own messages; `declined` hears why (the debug channel says it).
 */
export function quickYamlValue(
  text: string,
  declined: (reason: string) => void = () => {},
): QuickYaml | undefined {
  const decline = (reason: string) => {
    declined(reason);
    return undefined;
  };
  try {
    return valueOfEvents(text, parseEvents(text, {}), decline);
  } catch (error) {
    // A syntax error, or anything else js-yaml throws at: `yaml` decides, with its own message.
    return decline(`js-yaml stopped: ${String(error).split("\n")[0]}`);
  }
}

function valueOfEvents(
  text: string,
  events: Event[],
  decline: (reason: string) => undefined,
): QuickYaml | undefined {
  let documents = 0;
  const built: Building = {
    text,
    root: null,
    open: [],
    anchors: new Map(),
    aliases: 0,
    starts: new Map(),
  };
  for (const event of events) {
    let declined: string | undefined;
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        documents++;
        if (documents > 1 || event.directives.length > 0) {
          declined = "a second document or a directive";
        }
        break;
      case EVENT_ID.ALIAS:
        declined = addAlias(built, event);
        break;
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING:
        declined = openCollection(built, event);
        break;
      case EVENT_ID.SCALAR:
        declined = addScalar(built, event);
        break;
      case EVENT_ID.POP: {
        const closed = built.open.pop();
        if (!closed) break;
        // Unless an anchor inside it took the name since: an alias names the latest one.
        if (closed.anchor !== undefined && built.anchors.get(closed.anchor) === closed) {
          built.anchors.set(closed.anchor, closed.value);
        }
        add(built, closed.value);
        break;
      }
    }
    if (declined !== undefined) return decline(declined);
  }
  // A scalar as the whole document is never valid input, and the two parsers read the
  // indentation indicator of a block scalar there differently.
  const { root, starts } = built;
  const isCollection = root !== null && typeof root === "object";
  return documents === 1 && isCollection
    ? { value: root, starts }
    : decline("not one document holding a mapping or a list");
}

/** The value as the events so far build it. */
interface Building {
  readonly text: string;
  root: unknown;
  readonly open: Collection[];
  /** Anchor → its value, shared by every alias as in `yaml`; its Collection while still open. */
  readonly anchors: Map<string, unknown>;
  aliases: number;
  readonly starts: Map<object, number>;
}

function add(built: Building, value: unknown): void {
  const parent = built.open.at(-1);
  if (!parent) built.root = value;
  else if (Array.isArray(parent.value)) parent.value.push(value);
  else {
    parent.value[parent.key as string] = value;
    parent.key = undefined;
  }
}

function anchorOf(text: string, event: { anchorStart: number; anchorEnd: number }) {
  return event.anchorStart === NONE ? undefined : text.slice(event.anchorStart, event.anchorEnd);
}

/** Adds an alias's value; else why the quick path declines it. */
function addAlias(built: Building, event: AliasEvent): string | undefined {
  const { open } = built;
  // `yaml` limits how often an anchor may be used, counting aliases inside anchored values
  // too; a simple reuse stays far below its limit.
  const value = built.anchors.get(built.text.slice(event.anchorStart, event.anchorEnd));
  if (value === undefined || open.includes(value as Collection) || awaitsKey(open)) {
    return "an alias of an unknown or enclosing anchor, or as a key";
  }
  if (++built.aliases > 100 || open.some((collection) => collection.anchor !== undefined)) {
    return "aliases beyond the simple reuse of an anchored value";
  }
  // Reached by two paths now, so its start is not where each path leads.
  if (typeof value === "object" && value !== null) built.starts.delete(value);
  add(built, value);
  return undefined;
}

/** Opens a mapping or a list; else why the quick path declines it. */
function openCollection(built: Building, event: SequenceEvent | MappingEvent): string | undefined {
  if (event.tagStart !== NONE || awaitsKey(built.open)) {
    return "a tagged mapping or list, or one as a key";
  }
  const anchor = anchorOf(built.text, event);
  const collection: Collection = {
    value: event.type === EVENT_ID.MAPPING ? {} : [],
    key: undefined,
    anchor,
  };
  if (anchor !== undefined) built.anchors.set(anchor, collection);
  built.starts.set(collection.value, event.start);
  built.open.push(collection);
  return undefined;
}

/** Adds a scalar as a mapping's next key or as a value; else why the quick path declines it. */
function addScalar(built: Building, event: ScalarEvent): string | undefined {
  if (event.tagStart !== NONE) return "a tagged scalar";
  const { text } = built;
  const source = getScalarValue(text, event);
  const plain = event.style === SCALAR_STYLE.PLAIN;
  const anchor = anchorOf(text, event);
  const parent = built.open.at(-1);
  if (parent && !Array.isArray(parent.value) && parent.key === undefined) {
    if (
      anchor !== undefined ||
      (plain && resolvePlain(source) !== source) ||
      source === "__proto__" ||
      source === "<<" ||
      Object.hasOwn(parent.value, source) ||
      text.indexOf(":", event.valueEnd) - event.valueStart > 1000
    ) {
      return `the key at offset ${event.valueStart}: anchored, not text, repeated or long`;
    }
    parent.key = source;
    return undefined;
  }
  const value = plain ? resolvePlain(source) : source;
  if (value === UNRESOLVED) return `a plain scalar at offset ${event.valueStart}`;
  if (anchor !== undefined) built.anchors.set(anchor, value);
  add(built, value);
  return undefined;
}

export interface QuickYaml {
  value: unknown;
  /**
   * Where each mapping and list starts in the text, the offset `yaml` gives its node; none for
   * a value reached through an alias (and what it holds is then found under it).
   */
  starts: Map<object, number>;
}

interface Collection {
  value: Record<string, unknown> | unknown[];
  /** In a mapping: the key whose value comes next. */
  key: string | undefined;
  anchor: string | undefined;
}

const NONE = -1;
const UNRESOLVED = Symbol("unresolved");

function awaitsKey(open: Collection[]): boolean {
  const parent = open.at(-1);
  return parent !== undefined && !Array.isArray(parent.value) && parent.key === undefined;
}

/** `yaml`'s core schema (YAML 1.2): the tags that type an untagged plain scalar by its text. */
const coreTags = new Schema({ schema: "core" }).tags.filter(
  (tag): tag is ScalarTag => tag.default === true && tag.test !== undefined,
);

/** A plain scalar typed as `yaml` types it: the first core tag whose pattern matches, else text. */
function resolvePlain(source: string): unknown {
  const tag = coreTags.find((candidate) => candidate.test?.test(source));
  if (!tag) return source;
  let failed = false;
  const value = tag.resolve(
    source,
    () => {
      failed = true;
    },
    { intAsBigInt: false },
  );
  if (failed) return UNRESOLVED;
  return isScalar(value) ? value.value : value;
}
