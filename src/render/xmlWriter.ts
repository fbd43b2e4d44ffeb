const INDENT = "  ";
/** A line break and the indentation of each depth, made once. */
const NEW_LINES = Array.from({ length: 12 }, (_, depth) => `\n${INDENT.repeat(depth)}`);
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

/**
 * An attribute value that every use of a fragment fills in (see XmlWriter.insert): the fragment
 * is rendered once, and each use gives the value of each slot by its name, escaped.
 */
export class Slot<Name extends string = string> {
  constructor(readonly name: Name) {}
}

export function slot<Name extends string>(name: Name): Slot<Name> {
  return new Slot(name);
}

/** Elements rendered once (see XmlWriter.fragment) for the depth they were rendered at. */
export interface XmlFragment<SlotName extends string = string> {
  depth: number;
  /** UTF-8 bytes around the slots (one piece more than there are slots), copied as they are. */
  pieces: Buffer[];
  /** The slot between pieces[i] and pieces[i + 1] is filled with the value named slotNames[i]. */
  slotNames: SlotName[];
}

/** Room for a PI document at 48 programmes a day; the buffer grows when a document needs more. */
const INITIAL_CAPACITY = 256 * 1024;
/** Markup between fragments is encoded in pieces about this long: long enough for few calls into
 * the encoder, short enough that the string being built stays small. */
const PENDING_LIMIT = 4096;

/** A fragment's writer has no bytes: its markup is encoded when it is finished. */
const NO_BYTES = Buffer.alloc(0);

/** The bytes of the document being written, reused from one document to the next. */
let scratch: Buffer | undefined;

/**
 * Writes indented XML straight into UTF-8 bytes: each element on its own line, an element with
 * only text on one line, an empty element as `<name/>`. A PI document has thousands of
 * elements; xmlbuilder2's callback builder made a DOM fragment for each of them and spent ~90%
 * of a build there, this writer only appends escaped strings. Most of a PI document is
 * fragments encoded once per show, so per document only a few values are escaped and encoded.
 *
 * ```ts
 * const item = XmlWriter.fragment<"id">(1, (xml) => {
 *   xml.ele("item", { id: slot("id") }).ele("name").txt("Zürich & Bern").up().up();
 * });
 * const bytes = XmlWriter.document((xml) => {
 *   xml.ele("list", { kind: "towns" });
 *   xml.insert(item, { id: "a1" }).insert(item, { id: "b2" });
 * });
 * // <?xml version="1.0" encoding="UTF-8"?>
 * // <list kind="towns">
 * //   <item id="a1">
 * //     <name>Zürich &amp; Bern</name>
 * //   </item>
 * //   <item id="b2">
 * //   …
 * // </list>
 * ```
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
  /**
   * Where the slots of a fragment are, as offsets into its markup (`pending`, which a fragment
   * never encodes before it is finished), and their names; a document has none.
   */
  private readonly slots: { at: number[]; names: string[] } | undefined;

  /** A document (declaration first), or a fragment whose elements sit at `depth`. */
  private constructor(
    private readonly depth: number,
    prolog: string,
    bytes: Buffer,
    slots?: { at: number[]; names: string[] },
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
   * values given as `slot(name)` are filled in by each use. `SlotName` lists the names.
   */
  static fragment<SlotName extends string = never>(
    depth: number,
    build: (xml: XmlWriter) => void,
    slabs: FragmentSlabs = KEPT_SLABS,
  ): XmlFragment<SlotName> {
    const slots = { at: [] as number[], names: [] as string[] };
    const xml = new XmlWriter(depth, "", NO_BYTES, slots);
    build(xml);
    if (xml.open.length > 0) throw new Error(`a fragment left <${xml.open.at(-1)}> open`);
    // Fragment encoded once: a PI document with episodes renders a fragment for nearly every
    // airing (82,900 in the 100-service benchmark). Encoding its markup at each slot made a
    // small Buffer.write per slot, and writing it into a reused buffer an exact copy per
    // fragment (issue 23's profile: 5 % and 4 % of rendering). One write into the fragment
    // slab (see FragmentSlabs) makes bytes of the fragment's own; the pieces are views of them.
    const markup = xml.pending;
    const bytes = slabs.encode(markup);
    const ends = [...byteOffsets(markup, bytes.length, slots.at), bytes.length];
    return {
      depth,
      pieces: ends.map((end, i) => bytes.subarray(ends[i - 1] ?? 0, end)),
      slotNames: slots.names as SlotName[],
    };
  }

  /** Writes a fragment's elements inside the current element, each slot filled from `values`. */
  insert<SlotName extends string>(
    fragment: XmlFragment<SlotName>,
    values: Readonly<Record<SlotName, string>> = {} as Record<SlotName, string>,
  ): this {
    if (fragment.depth !== this.depth + this.open.length) {
      throw new Error(
        `a fragment for depth ${fragment.depth} written at ${this.depth + this.open.length}`,
      );
    }
    const { pieces, slotNames } = fragment;
    if (pieces.length === 1 && pieces[0]?.length === 0) return this;
    if (this.startTagOpen) this.write(">");
    this.startTagOpen = false;
    this.copy(pieces[0] as Buffer);
    for (let i = 0; i < slotNames.length; i++) {
      const name = slotNames[i] as SlotName;
      const value = values[name];
      if (value === undefined) throw new Error(`no value for the fragment's slot "${name}"`);
      this.write(escapeAttribute(value));
      this.copy(pieces[i + 1] as Buffer);
    }
    this.hasChildElements = true;
    return this;
  }

  /** Opens element `name` inside the current one; attributes are written in the given order. */
  ele(name: string, attrs: Record<string, string | Slot> = {}): this {
    if (this.startTagOpen) this.write(">");
    let tag = `${newLine(this.depth + this.open.length)}<${name}`;
    for (const attr in attrs) {
      const value = attrs[attr];
      if (value instanceof Slot) {
        this.write(`${tag} ${attr}="`);
        this.markSlot(value.name);
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
    if (this.pending.length >= PENDING_LIMIT && !this.slots) this.encodePending();
  }

  private copy(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.slots) throw new Error("a fragment inserted into a fragment");
    this.encodePending();
    this.reserve(piece.length);
    this.bytes.set(piece, this.length);
    this.length += piece.length;
  }

  private markSlot(name: string): void {
    if (!this.slots) throw new Error(`slot "${name}" outside a fragment`);
    this.slots.at.push(this.pending.length);
    this.slots.names.push(name);
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

/** Room for about twenty programme elements of ~3 kB. */
const FRAGMENT_SLAB_SIZE = 64 * 1024;
/**
 * Slabs given back (FragmentSlabs.release) and not yet taken again, at most this many (4 MB): a
 * service of the 100-service benchmark fills about 35.
 */
const SPARE_SLABS_MAX = 64;
const spareSlabs: Buffer[] = [];

/**
 * Where fragments are encoded, one after the other. Buffer.from of each fragment (most are
 * 1–4 kB) asked for its byte length first and then took a new 8 kB pool, or an ArrayBuffer of its
 * own, every few fragments: 10 % of rendering (issue 23). A slab is never written over while
 * its owner keeps fragments in it. An owner that is done with all of them (ProgrammeFragments,
 * after one service) gives its slabs back, and the next owner encodes into them: a new slab for
 * each service made ~220 MB of buffers die in a 100-service build, which the allocator kept as
 * ~60 MB of RSS (issue 23, "memory round 2").
 */
export class FragmentSlabs {
  #slab: Buffer = NO_BYTES;
  #used = 0;
  /** The FRAGMENT_SLAB_SIZE slabs this owner took, given back by `release`. */
  readonly #taken: Buffer[] = [];
  #released = false;

  encode(markup: string): Buffer {
    if (this.#released) throw new Error("a fragment encoded into slabs already given back");
    // A UTF-16 code unit never takes more than 3 bytes in UTF-8.
    const room = markup.length * 3;
    if (this.#used + room > this.#slab.length) {
      this.#slab =
        room > FRAGMENT_SLAB_SIZE
          ? Buffer.allocUnsafeSlow(room)
          : (spareSlabs.pop() ?? Buffer.allocUnsafeSlow(FRAGMENT_SLAB_SIZE));
      if (room <= FRAGMENT_SLAB_SIZE) this.#taken.push(this.#slab);
      this.#used = 0;
    }
    const start = this.#used;
    this.#used += this.#slab.write(markup, start);
    return this.#slab.subarray(start, this.#used);
  }

  /** Whether the slabs were given back: no fragment encoded here may be used any more. */
  get released(): boolean {
    return this.#released;
  }

  /** Gives the slabs back for other fragments: no fragment encoded here may be used after. */
  release(): void {
    this.#released = true;
    for (const slab of this.#taken.splice(0)) {
      if (spareSlabs.length < SPARE_SLABS_MAX) spareSlabs.push(slab);
    }
    this.#slab = NO_BYTES;
  }
}

/** For fragments kept as long as anything uses them (never given back). */
const KEPT_SLABS = new FragmentSlabs();

/** The UTF-8 byte offsets of `offsets` into `markup` (UTF-16), which encodes to `byteLength` bytes. */
function byteOffsets(markup: string, byteLength: number, offsets: number[]): number[] {
  // All ASCII (nearly always): each character is one byte.
  if (byteLength === markup.length) return offsets;
  let bytes = 0;
  return offsets.map((offset, i) => {
    bytes += Buffer.byteLength(markup.slice(offsets[i - 1] ?? 0, offset), "utf8");
    return bytes;
  });
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

/**
 * Besides markup, a parser changes some white space on reading: a raw CR becomes a line feed
 * everywhere, and in an attribute a tab or line feed becomes a space. As character references
 * they survive, so what a listener reads is what the YAML said.
 */
const TEXT_SPECIALS = /[&<>\r]/;
const ATTRIBUTE_SPECIALS = /[&<>"\t\n\r]/;

function escapeText(text: string): string {
  if (!TEXT_SPECIALS.test(text)) return text;
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll("\r", "&#13;");
}

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIALS.test(value)) return value;
  return escapeText(value)
    .replaceAll('"', "&quot;")
    .replaceAll("\t", "&#9;")
    .replaceAll("\n", "&#10;");
}

export const writeXmlDocument = XmlWriter.document;
