import { contentDigest, findStamp, sameDocument, withVersion } from "../publish/sameDocument.js";
import type { BuildState } from "./buildState.js";
import { isSitePath } from "./ownershipManifest.js";

/**
 * `version` on SI and PI (TS 102 818 tables 14 and 19: "shall be incremented by one for every
 * new version"). Decided here, at publish time, and nowhere else: render writes none, and
 * `settle` gives each rendered document its version, written right after its creationTime.
 *
 * What counts as a change: any byte of the document outside its stamp (`creationTime` and
 * `version`, see sameDocument.ts). An unchanged document keeps its version and is not written.
 *
 * The state: for each published SI and PI file, the version it carries and the SHA-256 of its
 * content, in the `versions` part of `out/_spi-static/state.json` (written when a build
 * completes), plus the journal's "version <n> <path>" lines: every new version is journaled before its
 * document is written, so after a build killed at any point the next one still knows the
 * highest version each path may have published, and never reuses a number for other content.
 * The published file's own version is a floor too, so a lost state folder never lowers one. A
 * document of which nothing is known (a first build, or a CI runner whose state and out/ were
 * both lost) starts at the build's clock (versionFloor), not at 1: above every version handed out
 * before, so a lost state never repeats a version for other content, while a document with a
 * history still grows by one as the standard asks.
 */
export interface DocumentRecord {
  version: number;
  /** contentDigest of the bytes published with that version. */
  content: string;
}

/** A rendered document with its version decided. */
export interface SettledDocument {
  content: Buffer;
  /** False when it says what the published file says (then the file is left as it is). */
  changed: boolean;
}

/**
 * The version of a rendered document. Unchanged from the published file: that file's version.
 * Else one more than any version this path may have carried (recorded, published, journaled),
 * or `floor` (the build's clock, versionFloor) when it may have carried none, except that a file
 * that is gone comes back under its recorded version if its content is the same and no higher
 * version was published since.
 */
export function decideVersion(
  recorded: DocumentRecord | undefined,
  published: { version: number; same: boolean } | undefined,
  content: string,
  journaled = 0,
  floor = 0,
): number {
  if (published?.same) return published.version;
  const publishedVersion = published?.version ?? 0;
  const highest = Math.max(recorded?.version ?? 0, publishedVersion, journaled);
  if (recorded?.content === content && recorded.version === highest && publishedVersion === 0) {
    return recorded.version;
  }
  return highest === 0 ? Math.max(1, floor) : highest + 1;
}

/** Versions from the build's clock count seconds from here (2020-01-01T00:00:00Z). */
export const VERSION_EPOCH = Date.UTC(2020, 0, 1);

/**
 * The first version of a document with no history, from a build at `now`: the seconds since
 * VERSION_EPOCH. A version grows by one per build that changes its document, and builds are
 * more than a second apart, so every version handed out is at most the clock's at its build:
 * when a CI cache is evicted (no state, no out/), the next build's first versions lie above
 * every version radios may hold, and none is repeated for other content.
 */
export function versionFloor(now: number): number {
  return Math.max(0, Math.floor((now - VERSION_EPOCH) / 1000));
}

/**
 * The version records as stored (state.json's `versions`). A damaged one is `damaged` (the
 * caller throws DamagedStateError), for a version guessed could repeat.
 */
export function parseVersionRecords(
  value: unknown,
  damaged: (problem: string) => Error,
): Map<string, DocumentRecord> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw damaged("it has no version records");
  }
  const records = new Map<string, DocumentRecord>();
  for (const [path, record] of Object.entries(value)) {
    if (!isSitePath(path) || !isRecord(record)) {
      throw damaged(`the entry for ${JSON.stringify(path).slice(0, 120)} is not a version record`);
    }
    records.set(path, record);
  }
  return records;
}

export class DocumentVersions {
  private constructor(
    /** The state's records, and this build's decisions as it makes them. */
    private readonly records: Map<string, DocumentRecord>,
    /** The highest version unfinished builds journaled per path. */
    private readonly journaledVersions: ReadonlyMap<string, number>,
    /** The least version of a changed document (versionFloor of the build's clock). */
    private readonly floor: number,
  ) {}

  /**
   * The last complete build's records, with what later unfinished builds journaled on top
   * (buildState.ts reads both, and refuses damaged ones).
   */
  static of(state: BuildState, floor = 0): DocumentVersions {
    return new DocumentVersions(state.versions, state.journaledVersions, floor);
  }

  /** The rendered document with its version, compared with the published bytes. */
  settle(path: string, rendered: Buffer, published: Buffer | undefined): SettledDocument {
    const stamp = findStamp(path, rendered);
    if (!stamp) {
      return { content: rendered, changed: !published || !sameDocument(path, published, rendered) };
    }
    const publishedStamp = published && findStamp(path, published);
    const same = publishedStamp !== undefined && sameDocument(path, published as Buffer, rendered);
    const recorded = this.records.get(path);
    // Same as the file its record describes: the recorded digest is this content's, so a document
    // rendered again without a change (--force, a changed input that changes nothing) is not hashed.
    const content =
      same && recorded?.version === publishedStamp?.version
        ? recorded.content
        : contentDigest(rendered, stamp);
    const version = decideVersion(
      recorded,
      publishedStamp && { version: publishedStamp.version, same },
      content,
      this.journaledVersions.get(path),
      this.floor,
    );
    this.records.set(path, { version, content });
    return same
      ? { content: published as Buffer, changed: false }
      : { content: withVersion(rendered, stamp, version), changed: true };
  }

  /**
   * Whether an unfinished build journaled a version for `path` since the last complete build:
   * its document must then be rendered and settled again, never reused as recorded.
   */
  journaled(path: string): boolean {
    return this.journaledVersions.has(path);
  }

  /** Before the documents are written: their versions, for the journal, so a killed build never loses one. */
  toJournal(paths: string[]): [version: number, path: string][] {
    return paths.flatMap((path) => {
      const record = this.records.get(path);
      return record ? [[record.version, path] as [number, string]] : [];
    });
  }

  /** The build finished: the records of the files it owns now, for the state. */
  recordsOf(paths: Iterable<string>): Map<string, DocumentRecord> {
    const records = new Map<string, DocumentRecord>();
    for (const path of [...paths].sort()) {
      const record = this.records.get(path);
      if (record) records.set(path, record);
    }
    return records;
  }
}

function isRecord(value: unknown): value is DocumentRecord {
  const record = value as Partial<DocumentRecord> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    Number.isSafeInteger(record.version) &&
    (record.version as number) >= 1 &&
    typeof record.content === "string" &&
    /^[0-9a-f]{64}$/.test(record.content)
  );
}
