import { contentDigest, findStamp, sameDocument, withVersion } from "../publish/sameDocument.js";
import type { BuildState } from "./buildState.js";
import type { DocumentRecord } from "./stateParts.js";

/**
 * `version` on SI and PI (TS 102 818 tables 14 and 19: "shall be incremented by one for every
 * new version"). Decided here, at publish time, and nowhere else: render writes none, and
 * `settle` gives each rendered document its version, written right after its creationTime.
 *
 * What counts as a change: any byte of the document outside its stamp (`creationTime` and
 * `version`, see sameDocument.ts). An unchanged document keeps its version and is not written.
 *
 * Its witnesses: the record (for each published SI and PI file, the version it carries and the
 * SHA-256 of its content, in the `versions` part of `out/_spi-static/state.json`), the journal's
 * "version <n> <path>" lines (every new version is journaled before its document is written, so
 * a build killed at any point loses none) and the published file itself. When they agree (the
 * file carries its recorded version and content, or a version a killed build journaled since),
 * a changed document gets one more than the highest, as the standard asks. When one is missing
 * or they disagree (a file whose version lost a digit, a file restored from an older out/ or
 * carrying other content than recorded at its version, a state older than the files, a file
 * gone), nobody can tell which versions were handed out since: the document gets at least the
 * build's clock (versionFloor), above every version handed out before, so no number is given
 * twice for different content; so does a document of which nothing is known (a first build).
 */
/** A rendered document with its version decided. */
export interface SettledDocument {
  content: Buffer;
  /** False when it says what the published file says (then the file is left as it is). */
  changed: boolean;
}

/** What is known of a path's versions; `content`: contentDigest of the published bytes. */
export interface VersionWitnesses {
  recorded?: DocumentRecord | undefined;
  published?: DocumentRecord | undefined;
  /** The highest version unfinished builds journaled. */
  journaled?: number | undefined;
}

/**
 * The version of a document rendered with `content` (its contentDigest). The published file's
 * when that is the same content and no record disagrees with it; else one more than the highest version
 * the path may have carried when they agree, and at least `floor` (the build's clock,
 * versionFloor) when they do not.
 */
export function decideVersion(
  { recorded, published, journaled = 0 }: VersionWitnesses,
  content: string,
  floor = 0,
): number {
  const agree =
    recorded !== undefined &&
    published !== undefined &&
    (published.version === recorded.version
      ? published.content === recorded.content
      : published.version > recorded.version && published.version <= journaled);
  // Unchanged, and no record says otherwise (none is left after a lost or damaged state).
  if (published?.content === content && (agree || recorded === undefined)) return published.version;
  const highest = Math.max(recorded?.version ?? 0, published?.version ?? 0, journaled);
  return agree ? highest + 1 : Math.max(highest + 1, floor);
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
   * (buildState.ts reads both, and drops damaged ones).
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
    const content = contentDigest(rendered, stamp);
    // The published file's content: hashed only to compare with the record at the same version.
    const publishedContent = same
      ? content
      : publishedStamp && publishedStamp.version === recorded?.version
        ? contentDigest(published as Buffer, publishedStamp)
        : "";
    const version = decideVersion(
      {
        recorded,
        published: publishedStamp && { version: publishedStamp.version, content: publishedContent },
        journaled: this.journaledVersions.get(path),
      },
      content,
      this.floor,
    );
    this.records.set(path, { version, content });
    return same && version === publishedStamp?.version
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
