import {
  type SchemaViolation,
  type SpiDocument,
  validateSpiDocuments,
} from "../xsd/validateSpiDocuments.js";

/**
 * Characters of fetched documents held before they are validated together: one xmllint run
 * per document costs ~76 ms (3,000 services would take minutes), one run over every document
 * of a large site runs out of wasm memory. At 4 MB (about 30 PI of 139 KB) verify peaked at
 * 229 MB against 1,000 services; at 16 MB, 374 MB against 3,000.
 */
const BATCH_CHARS = 4 * 1024 * 1024;
/** Violations kept for the report: the first few say what is wrong. */
const KEPT_VIOLATIONS = 5;

/**
 * The schema check of every document verify fetches, streamed: each is held only until its
 * batch is validated, so memory stays bounded whatever the number of services. `add` waits
 * while a full batch is validated, which holds back the requests that would fill the next.
 */
export class SchemaCheck {
  private batch: SpiDocument[] = [];
  private chars = 0;
  private validating: Promise<void> = Promise.resolve();
  /** Documents added. */
  count = 0;
  /** Violations found in all. */
  violationCount = 0;
  readonly violations: SchemaViolation[] = [];

  async add(document: SpiDocument): Promise<void> {
    this.batch.push(document);
    this.chars += document.xml.length;
    this.count++;
    if (this.chars >= BATCH_CHARS) await this.flush();
  }

  /** Validates what is held; resolves when every document added so far is checked. */
  flush(): Promise<void> {
    const batch = this.batch;
    this.batch = [];
    this.chars = 0;
    this.validating = this.validating.then(async () => {
      if (batch.length === 0) return;
      const found = await validateSpiDocuments(batch);
      this.violationCount += found.length;
      this.violations.push(...found.slice(0, KEPT_VIOLATIONS - this.violations.length));
    });
    return this.validating;
  }
}
