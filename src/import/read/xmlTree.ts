import sax from "sax";
import { nonXmlCharacterIn } from "../../load/formats/findNonXmlText.js";
import { linePositions } from "../../load/text/linePositions.js";

/** The SPI 3.1 namespace; elements of any other namespace are not SPI and are reported. */
export const SPI_NAMESPACE = "http://www.worlddab.org/schemas/spi/31";
/**
 * EPG 1.x (TS 102 818 V1, RadioEPG 1.0): the schedule, SI and data-type namespaces, some
 * published with https. Their elements are read as SPI 3.1's of the same name, which they
 * mostly are; the readers handle what differs, and `epgVersion1` says a document was one.
 */
const EPG1_NAMESPACE =
  /^https?:\/\/www\.worlddab\.org\/schemas\/(epgSchedule|epgSI|epgDataTypes)\/\d+$/;
const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/";
const XSI_NAMESPACE = "http://www.w3.org/2001/XMLSchema-instance";

/** Where an element starts: the document (a file path or URL) and its line and column. */
export interface XmlPosition {
  source: string;
  line: number;
  column: number;
}

/**
 * One element of a parsed document. The importer reads an element through `attribute`,
 * `children` and `text`, which mark what they return as read; whatever no reader asked for is
 * what `unread` lists, so nothing in a feed is dropped without being reported.
 */
export class XmlElement {
  readonly name: string;
  /** SPI_NAMESPACE for SPI 3.1 and EPG 1.x elements alike. */
  readonly namespace: string;
  /** The element is of an EPG 1.x namespace. */
  readonly epgVersion1: boolean;
  readonly position: XmlPosition;
  readonly parent: XmlElement | undefined;
  readonly childElements: XmlElement[] = [];
  /** Text and CDATA content, concatenated. */
  rawText = "";
  private readonly attributes = new Map<string, string>();
  private readonly readAttributes = new Set<string>();
  private read = false;

  constructor(
    name: string,
    namespace: string,
    position: XmlPosition,
    parent: XmlElement | undefined,
  ) {
    this.name = name;
    this.epgVersion1 = EPG1_NAMESPACE.test(namespace);
    this.namespace = this.epgVersion1 ? SPI_NAMESPACE : namespace;
    this.position = position;
    this.parent = parent;
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  /** An attribute's value without marking it read: a reader that may yet refuse the value. */
  peekAttribute(name: string): string | undefined {
    return this.attributes.get(name);
  }

  /** An attribute's value (`xml:lang` by that name); marks it read. */
  attribute(name: string): string | undefined {
    this.readAttributes.add(name);
    return this.attributes.get(name);
  }

  /** The element's own xml:lang, or the nearest ancestor's: the language its text is in. */
  language(): string | undefined {
    for (let at: XmlElement | undefined = this; at; at = at.parent) {
      const own = at.attribute("xml:lang");
      if (own !== undefined) return own;
    }
    return undefined;
  }

  /** The SPI child elements of this name, in document order; marks them read. */
  children(name: string): XmlElement[] {
    const found = this.childElements.filter(
      (c) => c.name === name && c.namespace === SPI_NAMESPACE,
    );
    for (const child of found) child.read = true;
    return found;
  }

  child(name: string): XmlElement | undefined {
    return this.children(name)[0];
  }

  /** The text content with surrounding white space removed (CDATA sections often carry it). */
  text(): string {
    this.read = true;
    return this.rawText.trim();
  }

  /** Marks the element read without reading it: a caller that reports it itself. */
  markRead(): void {
    this.read = true;
  }

  /**
   * Everything below `this` that no reader asked for: elements (with all they contain) and
   * attributes, each with where it is. Namespace declarations and xsi: attributes carry no data.
   * Walked with a stack of its own, not recursion: a feed may nest or repeat elements without
   * bound, and neither may overflow the call stack.
   */
  unread(): UnreadXml[] {
    const found: UnreadXml[] = [];
    const pending: XmlElement[] = [this];
    for (let element = pending.pop(); element; element = pending.pop()) {
      for (const name of element.attributes.keys()) {
        if (element.readAttributes.has(name) || name === "xmlns" || name.startsWith("xmlns:"))
          continue;
        if (name.startsWith("xsi:")) continue;
        const value = JSON.stringify(element.attributes.get(name) ?? "");
        found.push({
          position: element.position,
          kind: "attribute",
          what: `attribute ${name}=${value.length > 60 ? `${value.slice(0, 57)}…"` : value} of <${element.name}>`,
        });
      }
      for (let i = element.childElements.length - 1; i >= 0; i--) {
        const child = element.childElements[i] as XmlElement;
        if (child.read) pending.push(child);
        else {
          found.push({
            position: child.position,
            kind: "element",
            what: `element <${describe(child)}>`,
          });
        }
      }
    }
    return found.sort(byPosition);
  }
}

function byPosition(a: UnreadXml, b: UnreadXml): number {
  return a.position.line - b.position.line || a.position.column - b.position.column;
}

export interface UnreadXml {
  position: XmlPosition;
  kind: "attribute" | "element";
  what: string;
}

function describe(element: XmlElement): string {
  return element.namespace === SPI_NAMESPACE
    ? element.name
    : `${element.name}> of namespace <${element.namespace || "none"}`;
}

/** The document is not well-formed XML. */
export class XmlSyntaxError extends Error {
  readonly position: XmlPosition;

  constructor(message: string, position: XmlPosition) {
    super(message);
    this.position = position;
  }
}

/** Attribute-value normalisation (XML 1.0 §3.3.3): each white-space character becomes a space. */
const ATTRIBUTE_WHITE_SPACE = /[\t\n\r]/g;

/** A DOCTYPE's name and external identifier, without an internal subset (`[…]`). */
const EXTERNAL_ONLY_DOCTYPE =
  /^\s*[^\s[]+\s+(?:SYSTEM\s+(?:"[^"]*"|'[^']*')|PUBLIC\s+(?:"[^"]*"|'[^']*')\s+(?:"[^"]*"|'[^']*'))\s*$/;

/** An attribute's name and its `=` in a start tag; values are quoted, so `>` in one is skipped. */
const ATTRIBUTE = /\s([^\s=/>]+)\s*=\s*(?:"[^"]*"|'[^']*')/g;

/**
 * XML 1.0 §3.1 (Unique Att Spec): an attribute appears once in a tag. sax keeps the first and
 * drops the rest without a word, so which value a feed meant would be a guess.
 */
function refuseDuplicateAttribute(tag: string, positionAt: (offset: number) => XmlPosition) {
  if (!tag.includes("=")) return;
  const seen = new Set<string>();
  for (const match of tag.matchAll(ATTRIBUTE)) {
    const name = match[1] ?? "";
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    throw new XmlSyntaxError(
      `attribute ${name} appears twice in a tag (XML allows it once)`,
      positionAt((match.index ?? 0) + 1),
    );
  }
}

/**
 * Parses a whole document (strict XML with namespaces) into its root element, or throws an
 * XmlSyntaxError where the parser stopped: a document is well-formed or it is not read at all,
 * so a cut or broken one never yields part of its content. Only the five XML entities and
 * character references are expanded: a DOCTYPE with declarations of its own (entities among
 * them) is refused, so text never changes by a declaration no one sees; one that only names an
 * external DTD is read past, the DTD never fetched.
 */
export function parseXml(text: string, source: string): XmlElement {
  // XML 1.0 §2.11: line ends are normalised before parsing; sax does not do it itself.
  const normalised = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  // The decoder took the byte order mark; sax would skip a second one unseen.
  if (normalised.startsWith("\uFEFF")) {
    throw new XmlSyntaxError("a second byte order mark: the file was saved with two", {
      source,
      line: 1,
      column: 1,
    });
  }
  // strictEntities (sax ≥ 1.3, not in @types/sax): the five XML entities only, not HTML's 253.
  const options: sax.SAXOptions & { strictEntities: boolean } = {
    xmlns: true,
    position: true,
    strictEntities: true,
  };
  const parser = sax.parser(true, options);
  const lineOf = linePositions(normalised);
  const positionOf = (offset: number): XmlPosition => ({ source, ...lineOf(offset) });
  const stoppedAt = () => positionOf(Math.max(0, parser.position - 1));
  const refuseNonXml = (content: string) => {
    const codePoint = nonXmlCharacterIn(content);
    if (codePoint !== undefined) {
      throw new XmlSyntaxError(`${codePoint} is not a character XML allows`, stoppedAt());
    }
  };

  let root: XmlElement | undefined;
  let current: XmlElement | undefined;
  parser.onerror = (error) => {
    // sax would note the error and read on (and forget an unexpected end): stop where it is.
    const message = error.message.split("\n")[0] ?? "not well-formed";
    if (message.startsWith("Invalid character entity")) {
      const ampersand = normalised.lastIndexOf("&", parser.position - 1);
      const reference = normalised.slice(ampersand, parser.position);
      throw new XmlSyntaxError(
        `${reference} is not XML: only &amp; &lt; &gt; &quot; &apos; and character references of characters XML allows are`,
        positionOf(ampersand),
      );
    }
    if (/^(Unexpected close tag|Unmatched closing tag)/.test(message)) {
      const at = Math.max(0, normalised.lastIndexOf("</", parser.position - 1));
      const closing = normalised.slice(at, parser.position);
      throw new XmlSyntaxError(
        `${closing} ${current ? `does not close <${current.name}>` : "closes nothing"} (names are case-sensitive)`,
        positionOf(at),
      );
    }
    if (/^(Unclosed root tag|Unexpected end)/.test(message) && current) {
      throw new XmlSyntaxError(
        `the document ends inside <${current.name}>: it was cut short`,
        stoppedAt(),
      );
    }
    throw new XmlSyntaxError(message, stoppedAt());
  };
  parser.ondoctype = (doctype) => {
    // Only an external identifier (EPG 1.x feeds name their DTD): never fetched, and since
    // only XML's own entities are expanded, it cannot change the text.
    if (EXTERNAL_ONLY_DOCTYPE.test(doctype)) return;
    throw new XmlSyntaxError(
      "a DOCTYPE is refused: its declarations (entities among them) would change the text unseen",
      positionOf(Math.max(0, normalised.lastIndexOf("<!DOCTYPE", parser.position))),
    );
  };
  parser.onopentag = (tag) => {
    const qualified = tag as sax.QualifiedTag;
    const element = new XmlElement(
      qualified.local,
      qualified.uri,
      positionOf(parser.startTagPosition - 1),
      current,
    );
    refuseDuplicateAttribute(normalised.slice(parser.startTagPosition - 1, parser.position), (at) =>
      positionOf(parser.startTagPosition - 1 + at),
    );
    for (const attribute of Object.values(qualified.attributes)) {
      if (attribute.uri === XMLNS_NAMESPACE) continue;
      refuseNonXml(attribute.value);
      const prefix =
        attribute.uri === XML_NAMESPACE ? "xml:" : attribute.uri === XSI_NAMESPACE ? "xsi:" : "";
      element.setAttribute(
        `${prefix}${attribute.local}`,
        attribute.value.replace(ATTRIBUTE_WHITE_SPACE, " "),
      );
    }
    if (current) current.childElements.push(element);
    else if (root) throw new XmlSyntaxError("a second root element", element.position);
    else root = element;
    current = element;
  };
  parser.onclosetag = () => {
    current = current?.parent;
  };
  const addText = (content: string) => {
    refuseNonXml(content);
    if (current) current.rawText += content;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  try {
    parser.write(normalised).close();
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw error;
    throw new XmlSyntaxError(
      (error as Error).message.split("\n")[0] ?? "not well-formed",
      stoppedAt(),
    );
  }
  if (!root) throw new XmlSyntaxError("no root element", positionOf(0));
  return root;
}
