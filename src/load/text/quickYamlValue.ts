import { EVENT_ID, type Event, getScalarValue, parseEvents, SCALAR_STYLE } from "js-yaml";
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
  let root: unknown = null;
  const open: Collection[] = [];
  // Anchor → its value, shared by every alias as in `yaml`; its Collection while still open.
  const anchors = new Map<string, unknown>();
  let aliases = 0;
  const starts = new Map<object, number>();
  const anchorOf = (event: { anchorStart: number; anchorEnd: number }) =>
    event.anchorStart === NONE ? undefined : text.slice(event.anchorStart, event.anchorEnd);
  const add = (value: unknown) => {
    const parent = open.at(-1);
    if (!parent) root = value;
    else if (Array.isArray(parent.value)) parent.value.push(value);
    else {
      parent.value[parent.key as string] = value;
      parent.key = undefined;
    }
  };
  for (const event of events) {
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        documents++;
        if (documents > 1 || event.directives.length > 0) {
          return decline("a second document or a directive");
        }
        break;
      case EVENT_ID.ALIAS: {
        // `yaml` limits how often an anchor may be used, counting aliases inside anchored
        // values too; a simple reuse stays far below its limit.
        const value = anchors.get(text.slice(event.anchorStart, event.anchorEnd));
        if (value === undefined || open.includes(value as Collection) || awaitsKey(open)) {
          return decline("an alias of an unknown or enclosing anchor, or as a key");
        }
        if (++aliases > 100 || open.some((collection) => collection.anchor !== undefined)) {
          return decline("aliases beyond the simple reuse of an anchored value");
        }
        // Reached by two paths now, so its start is not where each path leads.
        if (typeof value === "object" && value !== null) starts.delete(value);
        add(value);
        break;
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        if (event.tagStart !== NONE || awaitsKey(open)) {
          return decline("a tagged mapping or list, or one as a key");
        }
        const anchor = anchorOf(event);
        const collection: Collection = {
          value: event.type === EVENT_ID.MAPPING ? {} : [],
          key: undefined,
          anchor,
        };
        if (anchor !== undefined) anchors.set(anchor, collection);
        starts.set(collection.value, event.start);
        open.push(collection);
        break;
      }
      case EVENT_ID.SCALAR: {
        if (event.tagStart !== NONE) return decline("a tagged scalar");
        const source = getScalarValue(text, event);
        const plain = event.style === SCALAR_STYLE.PLAIN;
        const anchor = anchorOf(event);
        const parent = open.at(-1);
        if (parent && !Array.isArray(parent.value) && parent.key === undefined) {
          if (
            anchor !== undefined ||
            (plain && resolvePlain(source) !== source) ||
            source === "__proto__" ||
            source === "<<" ||
            Object.hasOwn(parent.value, source) ||
            text.indexOf(":", event.valueEnd) - event.valueStart > 1000
          ) {
            return decline(
              `the key at offset ${event.valueStart}: anchored, not text, repeated or long`,
            );
          }
          parent.key = source;
          break;
        }
        const value = plain ? resolvePlain(source) : source;
        if (value === UNRESOLVED) return decline(`a plain scalar at offset ${event.valueStart}`);
        if (anchor !== undefined) anchors.set(anchor, value);
        add(value);
        break;
      }
      case EVENT_ID.POP: {
        const closed = open.pop();
        if (!closed) break;
        // Unless an anchor inside it took the name since: an alias names the latest one.
        if (closed.anchor !== undefined && anchors.get(closed.anchor) === closed) {
          anchors.set(closed.anchor, closed.value);
        }
        add(closed.value);
        break;
      }
    }
  }
  // A scalar as the whole document is never valid input, and the two parsers read the
  // indentation indicator of a block scalar there differently.
  const isCollection = root !== null && typeof root === "object";
  return documents === 1 && isCollection
    ? { value: root, starts }
    : decline("not one document holding a mapping or a list");
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
