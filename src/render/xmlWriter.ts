import type { Description, Genre, Link } from "../load/broadcaster.js";

export const SPI_NAMESPACE = "http://www.worlddab.org/schemas/spi/31";

const INDENT = "  ";
/** A line break and the indentation of each depth, made once. */
const NEW_LINES = Array.from({ length: 12 }, (_, depth) => `\n${INDENT.repeat(depth)}`);
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * Marks an attribute value that every use of a fragment fills in (see XmlWriter.insert): the
 * fragment is rendered once, its slots take each use's values, escaped.
 */
export const SLOT = Symbol("slot");

/** Elements rendered once (see XmlWriter.fragment) for the depth they were rendered at. */
export interface XmlFragment {
  depth: number;
  /** UTF-8 bytes around the slots (one piece more than there are slots), copied as they are. */
  pieces: Buffer[];
}

/** Room for a PI document at 48 programmes a day; the buffer grows when a document needs more. */
const INITIAL_CAPACITY = 256 * 1024;
/** Markup between fragments is encoded in pieces about this long: long enough for few calls into
 * the encoder, short enough that the string being built stays small. */
const PENDING_LIMIT = 4096;

/** The bytes of the document being written, reused from one document to the next. */
let scratch: Buffer | undefined;

/**
 * Writes indented XML straight into UTF-8 bytes: each element on its own line, an element with
 * only text on one line, an empty element as `<name/>`. A PI document has thousands of
 * elements; xmlbuilder2's callback builder made a DOM fragment for each of them and spent ~90%
 * of a build there, this writer only appends escaped strings. Most of a PI document is
 * fragments encoded once per show, so per document only a few values are escaped and encoded.
 */
export class XmlWriter {
  private bytes: Buffer;
  private length = 0;
  /** Markup not yet encoded into `bytes`. */
  private pending: string;
  private readonly open: string[] = [];
  /** The innermost start tag still lacks its `>`: nothing has been written inside it yet. */
  private startTagOpen = false;
  /** The innermost element has child elements, so its end tag goes on a line of its own. */
  private hasChildElements = false;
  /** Where the slots of a fragment are, in bytes; a document has none. */
  private readonly slots: number[] | undefined;

  /** A document (declaration first), or a fragment whose elements sit at `depth`. */
  private constructor(
    private readonly depth: number,
    prolog: string,
    bytes: Buffer,
    slots?: number[],
  ) {
    this.pending = prolog;
    this.bytes = bytes;
    this.slots = slots;
  }

  /** One document, UTF-8: `build` receives the writer after the XML declaration. */
  static document(build: (xml: XmlWriter) => void): Buffer {
    // A document built inside another one's `build` gets a buffer of its own.
    const bytes = scratch ?? Buffer.allocUnsafe(INITIAL_CAPACITY);
    scratch = undefined;
    const xml = new XmlWriter(0, DECLARATION, bytes);
    try {
      build(xml);
      while (xml.open.length > 0) xml.up();
      xml.write("\n");
      return copyOf(xml.finish());
    } finally {
      scratch = xml.bytes;
    }
  }

  /**
   * Elements to write into many documents at `depth` without rendering them again; attribute
   * values given as SLOT are filled in by each use.
   */
  static fragment(depth: number, build: (xml: XmlWriter) => void): XmlFragment {
    const slots: number[] = [];
    const xml = new XmlWriter(depth, "", Buffer.allocUnsafe(PENDING_LIMIT), slots);
    build(xml);
    if (xml.open.length > 0) throw new Error(`a fragment left <${xml.open.at(-1)}> open`);
    const bytes = xml.finish();
    const ends = [...slots, bytes.length];
    return { depth, pieces: ends.map((end, i) => copyOf(bytes.subarray(ends[i - 1] ?? 0, end))) };
  }

  /** Writes a fragment's elements inside the current element, its slots filled with `values`. */
  insert(fragment: XmlFragment, values: readonly string[] = []): this {
    if (fragment.depth !== this.depth + this.open.length) {
      throw new Error(
        `a fragment for depth ${fragment.depth} written at ${this.depth + this.open.length}`,
      );
    }
    const { pieces } = fragment;
    if (values.length !== pieces.length - 1) {
      throw new Error(`a fragment with ${pieces.length - 1} slots given ${values.length} values`);
    }
    if (pieces.length === 1 && pieces[0]?.length === 0) return this;
    if (this.startTagOpen) this.write(">");
    this.startTagOpen = false;
    for (let i = 0; i < pieces.length; i++) {
      if (i > 0) this.write(escapeAttribute(values[i - 1] as string));
      this.copy(pieces[i] as Buffer);
    }
    this.hasChildElements = true;
    return this;
  }

  /** Opens element `name` inside the current one; attributes are written in the given order. */
  ele(name: string, attrs: Record<string, string | typeof SLOT> = {}): this {
    if (this.startTagOpen) this.write(">");
    let tag = `${newLine(this.depth + this.open.length)}<${name}`;
    for (const attr in attrs) {
      const value = attrs[attr];
      if (value === SLOT) {
        this.write(`${tag} ${attr}="`);
        this.markSlot();
        tag = '"';
      } else tag += ` ${attr}="${escapeAttribute(value as string)}"`;
    }
    this.write(tag);
    this.open.push(name);
    this.startTagOpen = true;
    this.hasChildElements = false;
    return this;
  }

  /** Text content of the current element (elements hold text or children, never both here). */
  txt(text: string): this {
    if (this.startTagOpen) this.write(">");
    this.startTagOpen = false;
    this.write(escapeText(text));
    return this;
  }

  /** Closes the current element. */
  up(): this {
    const name = this.open.pop();
    if (name === undefined) throw new Error("XmlWriter.up() without an open element");
    if (this.startTagOpen) this.write("/>");
    else if (this.hasChildElements) {
      this.write(`${newLine(this.depth + this.open.length)}</${name}>`);
    } else this.write(`</${name}>`);
    this.startTagOpen = false;
    // The parent now has at least this child element.
    this.hasChildElements = true;
    return this;
  }

  private write(markup: string): void {
    this.pending += markup;
    if (this.pending.length >= PENDING_LIMIT) this.encodePending();
  }

  private copy(piece: Buffer): void {
    if (piece.length === 0) return;
    this.encodePending();
    this.reserve(piece.length);
    this.bytes.set(piece, this.length);
    this.length += piece.length;
  }

  private markSlot(): void {
    if (!this.slots) throw new Error("a SLOT outside a fragment");
    this.encodePending();
    this.slots.push(this.length);
  }

  private encodePending(): void {
    if (this.pending === "") return;
    // A UTF-16 code unit never takes more than 3 bytes in UTF-8.
    this.reserve(this.pending.length * 3);
    this.length += this.bytes.write(this.pending, this.length);
    this.pending = "";
  }

  private reserve(byteCount: number): void {
    if (this.length + byteCount <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.bytes.length, this.length + byteCount));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }

  /** The bytes written, in the writer's own buffer: copy them before the buffer is reused. */
  private finish(): Buffer {
    this.encodePending();
    return this.bytes.subarray(0, this.length);
  }
}

function newLine(depth: number): string {
  return NEW_LINES[depth] ?? `\n${INDENT.repeat(depth)}`;
}

/** Bytes of their own, not a view of a writer's reused buffer. */
function copyOf(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

const TEXT_SPECIALS = /[&<>]/;
const ATTRIBUTE_SPECIALS = /[&<>"]/;

function escapeText(text: string): string {
  if (!TEXT_SPECIALS.test(text)) return text;
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIALS.test(value)) return value;
  return escapeText(value).replaceAll('"', "&quot;");
}

export const writeXmlDocument = XmlWriter.document;

/** Attributes without the ones that are not set, so optional values simply disappear. */
export function attributes(
  values: Record<string, string | number | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) out[name] = String(value);
  }
  return out;
}

export function textElement(
  xml: XmlWriter,
  name: string,
  text: string,
  attrs: Record<string, string> = {},
) {
  xml.ele(name, attrs).txt(text).up();
}

/** SPI asks for one item per mediaDescription; short before long, as in the seed. */
export function writeDescriptions(xml: XmlWriter, description: Description | undefined) {
  if (description?.short) {
    xml.ele("mediaDescription");
    textElement(xml, "shortDescription", description.short);
    xml.up();
  }
  if (description?.long) {
    xml.ele("mediaDescription");
    textElement(xml, "longDescription", description.long);
    xml.up();
  }
}

export function writeMultimedia(
  xml: XmlWriter,
  attrs: Record<string, string | number | undefined>,
) {
  xml.ele("mediaDescription").ele("multimedia", attributes(attrs)).up().up();
}

export function writeGenres(xml: XmlWriter, genres: Genre[]) {
  for (const genre of genres) {
    textElement(
      xml,
      "genre",
      genre.name,
      attributes({ href: genre.href, type: genre.type ?? "main" }),
    );
  }
}

export function writeKeywords(xml: XmlWriter, keywords: string[]) {
  if (keywords.length > 0) textElement(xml, "keywords", keywords.join(", "));
}

export function writeLinks(xml: XmlWriter, links: Link[]) {
  for (const link of links) {
    xml
      .ele(
        "link",
        attributes({ uri: link.uri, mimeValue: link.mimeValue, description: link.description }),
      )
      .up();
  }
}
