/**
 * Something in the feed that the data folder cannot say, or says differently: the import's
 * report lists each, with where it came from, so nothing is dropped without a word.
 */
export interface ImportNote {
  /** `file:line:col` (or `url:line:col`), or a service or file when the note is about all of it. */
  origin: string;
  message: string;
}

/** Notes with the same message are listed once, with how often and the first place. */
export interface SummarisedNote extends ImportNote {
  count: number;
}

export function summariseNotes(notes: readonly ImportNote[]): SummarisedNote[] {
  const byMessage = new Map<string, SummarisedNote>();
  for (const note of notes) {
    const seen = byMessage.get(note.message);
    if (seen) seen.count++;
    else byMessage.set(note.message, { ...note, count: 1 });
  }
  return [...byMessage.values()];
}

export function formatNote(note: SummarisedNote): string {
  const times = note.count > 1 ? ` (${note.count} times; the first here)` : "";
  return `${note.origin}: ${note.message}${times}`;
}
