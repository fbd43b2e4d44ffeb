import { appendFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isSitePath } from "./ownershipManifest.js";
import { contentDigest, findStamp, sameDocument, withVersion } from "./sameDocument.js";
import { VERSIONS_JOURNAL_PATH, VERSIONS_PATH } from "./stateFolder.js";
import { writeFileAtomically } from "./writeFileAtomically.js";

/**
 * `version` on SI and PI (TS 102 818 tables 14 and 19: "shall be incremented by one for every
 * new version"). Decided here, at publish time, and nowhere else: render writes none, and
 * `settle` gives each rendered document its version, written right after its creationTime.
 *
 * What counts as a change: any byte of the document outside its stamp (`creationTime` and
 * `version`, see sameDocument.ts). An unchanged document keeps its version and is not written.
 *
 * The state: for each published SI and PI file, the version it carries and the SHA-256 of its
 * content, in `out/_spi-static/versions.json` (written when a build completes), plus
 * `versions.journal`: every version is journaled before its document is written, so a build
 * killed between the two never lets a later build publish a lower or reused version. The
 * published file's own version is a floor too, so a lost state folder never lowers a version.
 */
export interface DocumentRecord {
  version: number;
  /** contentDigest of the bytes published with that version. */
  content: string;
}

/** out/_spi-static/versions.json. */
export interface VersionsFile {
  generator: "spi-static";
  documents: Record<string, DocumentRecord>;
}

/** A rendered document with its version decided. */
export interface SettledDocument {
  content: Buffer;
  /** False when it says what the published file says (then the file is left as it is). */
  changed: boolean;
}

/**
 * The version of a rendered document. Unchanged from the published file: that file's version.
 * Else one more than any version this path ever carried, unless the record shows this very
 * content journaled under a version no file got (a build stopped between journal and write).
 */
export function decideVersion(
  recorded: DocumentRecord | undefined,
  published: { version: number; same: boolean } | undefined,
  content: string,
): number {
  if (published?.same) return published.version;
  const publishedVersion = published?.version ?? 0;
  if (recorded?.content === content && recorded.version > publishedVersion) return recorded.version;
  return Math.max(recorded?.version ?? 0, publishedVersion) + 1;
}

export class DocumentVersions {
  private readonly records: Map<string, DocumentRecord>;
  private readonly committed: string;

  private constructor(
    private readonly outDir: string,
    records: Map<string, DocumentRecord>,
    committed: string,
  ) {
    this.records = records;
    this.committed = committed;
  }

  /** The last complete build's records, with what later unfinished builds journaled on top. */
  static read(outDir: string): DocumentVersions {
    const records = new Map<string, DocumentRecord>();
    const file = readOptional(join(outDir, VERSIONS_PATH)) ?? "";
    if (file !== "") {
      let parsed: Partial<VersionsFile>;
      try {
        parsed = JSON.parse(file) as Partial<VersionsFile>;
      } catch {
        throw new Error(
          "it is not valid JSON; delete it to start over (versions then continue from the published files)",
        );
      }
      for (const [path, record] of Object.entries(parsed.documents ?? {})) {
        if (isSitePath(path) && isRecord(record)) records.set(path, record);
      }
    }
    for (const line of readOptional(join(outDir, VERSIONS_JOURNAL_PATH))?.split("\n") ?? []) {
      const [version, content, path] = line.split(" ", 3);
      const record = { version: Number(version), content };
      if (path !== undefined && isSitePath(path) && isRecord(record)) records.set(path, record);
    }
    return new DocumentVersions(outDir, records, file);
  }

  /** The rendered document with its version, compared with the published bytes. */
  settle(path: string, rendered: Buffer, published: Buffer | undefined): SettledDocument {
    const stamp = findStamp(path, rendered);
    if (!stamp) {
      return { content: rendered, changed: !published || !sameDocument(path, published, rendered) };
    }
    const publishedStamp = published && findStamp(path, published);
    const same = publishedStamp !== undefined && sameDocument(path, published as Buffer, rendered);
    const content = contentDigest(rendered, stamp);
    const version = decideVersion(
      this.records.get(path),
      publishedStamp && { version: publishedStamp.version, same },
      content,
    );
    this.records.set(path, { version, content });
    return same
      ? { content: published as Buffer, changed: false }
      : { content: withVersion(rendered, stamp, version), changed: true };
  }

  /** Before the documents are written: their versions, so a killed build never loses one. */
  journal(paths: string[]): void {
    const lines = paths.flatMap((path) => {
      const record = this.records.get(path);
      return record ? [`${record.version} ${record.content} ${path}\n`] : [];
    });
    if (lines.length > 0) appendFileSync(join(this.outDir, VERSIONS_JOURNAL_PATH), lines.join(""));
  }

  /** The build finished: the records of the files it owns now, and no journal. */
  commit(paths: Iterable<string>): void {
    const documents: Record<string, DocumentRecord> = {};
    for (const path of [...paths].sort()) {
      const record = this.records.get(path);
      if (record) documents[path] = record;
    }
    const file: VersionsFile = { generator: "spi-static", documents };
    const text = `${JSON.stringify(file, null, 1)}\n`;
    if (text !== this.committed) writeFileAtomically(join(this.outDir, VERSIONS_PATH), text);
    rmSync(join(this.outDir, VERSIONS_JOURNAL_PATH), { force: true });
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

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
