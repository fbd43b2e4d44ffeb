import sax from "sax";

/** The SPI 3.1 namespace; elements of any other namespace are not SPI and are reported. */
export const SPI_NAMESPACE = "http://www.worlddab.org/schemas/spi/31";
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
  readonly namespace: string;
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
    this.namespace = namespace;
    this.position = position;
    this.parent = parent;
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
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
   */
  unread(): UnreadXml[] {
    const found: UnreadXml[] = [];
    for (const name of this.attributes.keys()) {
      if (this.readAttributes.has(name) || name === "xmlns" || name.startsWith("xmlns:")) continue;
      if (name.startsWith("xsi:")) continue;
      found.push({ position: this.position, what: `attribute ${name} of <${this.name}>` });
    }
    for (const child of this.childElements) {
      if (child.read) found.push(...child.unread());
      else found.push({ position: child.position, what: `element <${describe(child)}>` });
    }
    return found;
  }
}

export interface UnreadXml {
  position: XmlPosition;
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

/** Parses a whole document (strict XML with namespaces) into its root element. */
export function parseXml(text: string, source: string): XmlElement {
  const parser = sax.parser(true, { xmlns: true, position: true });
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const positionOf = (offset: number): XmlPosition => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { source, line: low + 1, column: offset - (lineStarts[low] ?? 0) + 1 };
  };

  let root: XmlElement | undefined;
  let current: XmlElement | undefined;
  parser.onopentag = (tag) => {
    const qualified = tag as sax.QualifiedTag;
    const element = new XmlElement(
      qualified.local,
      qualified.uri,
      positionOf(parser.startTagPosition - 1),
      current,
    );
    for (const attribute of Object.values(qualified.attributes)) {
      if (attribute.uri === XMLNS_NAMESPACE) continue;
      const prefix =
        attribute.uri === XML_NAMESPACE ? "xml:" : attribute.uri === XSI_NAMESPACE ? "xsi:" : "";
      element.setAttribute(`${prefix}${attribute.local}`, attribute.value);
    }
    if (current) current.childElements.push(element);
    else root = element;
    current = element;
  };
  parser.onclosetag = () => {
    current = current?.parent;
  };
  const addText = (content: string) => {
    if (current) current.rawText += content;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  try {
    parser.write(text).close();
  } catch (error) {
    // Without an onerror handler sax throws at the first error, where it stopped reading.
    const message = (error as Error).message.split("\n")[0] ?? "not well-formed";
    throw new XmlSyntaxError(message, {
      source,
      line: parser.line + 1,
      column: parser.column + 1,
    });
  }
  if (!root) throw new XmlSyntaxError("no root element", positionOf(0));
  return root;
}
