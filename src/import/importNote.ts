/**
 * Something in the feed that the data folder cannot say, or says differently: the import's
 * report lists each, with where it came from, so nothing is dropped without a word.
 */
export interface ImportNote {
  /** `file:line:col` (or `url:line:col`), or a service or file when the note is about all of it. */
  origin: string;
  message: string;
  /**
   * Notes of one kind with different messages (each unread attribute with its name and value):
   * the first few are listed, the rest counted in one line, so a feed of 50,000 is still read.
   */
  kind?: string;
}

/** Notes with the same message are listed once, with how often and the first place. */
export interface SummarisedNote extends ImportNote {
  count: number;
}

/** How many different notes of one kind are listed before the rest are counted. */
const LISTED_OF_A_KIND = 4;

export function summariseNotes(notes: readonly ImportNote[]): SummarisedNote[] {
  const byMessage = new Map<string, SummarisedNote>();
  for (const note of notes) {
    const seen = byMessage.get(note.message);
    if (seen) seen.count++;
    else byMessage.set(note.message, { ...note, count: 1 });
  }
  const listed: SummarisedNote[] = [];
  const ofKind = new Map<string, number>();
  const rest = new Map<string, SummarisedNote>();
  for (const note of byMessage.values()) {
    const kind = note.kind;
    const shown = kind === undefined ? 0 : (ofKind.get(kind) ?? 0);
    if (kind === undefined || shown < LISTED_OF_A_KIND) {
      listed.push(note);
      if (kind !== undefined) ofKind.set(kind, shown + 1);
      continue;
    }
    const more = rest.get(kind);
    if (more) more.count += note.count;
    else {
      const first = { origin: note.origin, message: "", kind, count: note.count };
      rest.set(kind, first);
      listed.push(first);
    }
  }
  for (const [kind, more] of rest) {
    more.message = `and ${more.count.toLocaleString("en-US")} more: ${kind} (the first of them here)`;
    more.count = 1;
  }
  return listed;
}

export function formatNote(note: SummarisedNote): string {
  const times = note.count > 1 ? ` (${note.count} times; the first here)` : "";
  return `${note.origin}: ${note.message}${times}`;
}
