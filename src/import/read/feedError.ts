import { SpiStaticError } from "../../exit/spiStaticError.js";
import { formatNote, type ImportNote, summariseNotes } from "../importNote.js";
import { originOf } from "./readSpiElements.js";
import type { XmlSyntaxError } from "./xmlTree.js";

/**
 * The feed cannot be imported: it cannot be fetched or read, a document is not well-formed,
 * too large or too slow, or there is no SI. Nothing is written (exit 3). The notes gathered
 * until then are part of the answer: they often say why (an SI that was not read, and where).
 */
export class FeedError extends SpiStaticError {
  readonly kind = "failure";
  readonly notes: readonly ImportNote[];

  constructor(message: string, notes: readonly ImportNote[] = []) {
    super(message);
    this.notes = notes;
  }

  override describe(): string[] {
    return [...summariseNotes(this.notes).map(formatNote), `spi-static: ${this.message}`];
  }

  override toJsonReport(): Record<string, unknown> {
    return { error: this.message, notes: summariseNotes(this.notes) };
  }
}

/** A document that is not well-formed (or not in its encoding) stops the import where it is. */
export function notWellFormed(error: XmlSyntaxError, notes: readonly ImportNote[]): FeedError {
  return new FeedError(
    `${originOf(error.position)}: not well-formed XML: ${error.message}; nothing was imported`,
    notes,
  );
}
