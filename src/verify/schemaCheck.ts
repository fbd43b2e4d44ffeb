import {
  type SchemaViolation,
  type SpiDocument,
  validateSpiDocuments,
} from "../xsd/validateSpiDocuments.js";

/**
 * Characters of fetched documents held before they are validated together: one xmllint run
 * per document costs ~76 ms (3,000 services would take minutes), one run over every document
 * of a large site runs out of wasm memory. Against 1,000 services of 139 KB PIs on a loaded
 * 2-core machine: 4 MB peaked at 249 MB in 113 s, 2 MB at 215 MB in 196 s (each run is a new
 * xmllint worker: ~110 MB of the peak, and most of the time).
 */
const BATCH_CHARS = 4 * 1024 * 1024;
/** Violations kept for the report: the first few say what is wrong. */
const KEPT_VIOLATIONS = 5;

/**
 * The schema check of every document verify fetches, streamed: each is held only until its
 * batch is validated. At most two batches are held: one being validated and the next filling.
 * When that one is full too, every `add` waits for the validation to end, which holds back all
 * the requests that would fill a third (parallel requests each queueing a full batch had held
 * up to eight).
 */
export class SchemaCheck {
  private batch: SpiDocument[] = [];
  private chars = 0;
  private running: Promise<void> | undefined;
  /** Documents added. */
  count = 0;
  /** Violations found in all. */
  violationCount = 0;
  readonly violations: SchemaViolation[] = [];

  async add(document: SpiDocument): Promise<void> {
    while (this.chars >= BATCH_CHARS) {
      if (this.running) await this.running;
      else this.start();
    }
    this.batch.push(document);
    this.chars += document.xml.length;
    this.count++;
    if (this.chars >= BATCH_CHARS && !this.running) this.start();
  }

  /** Validates what is held; resolves when every document added so far is checked. */
  async flush(): Promise<void> {
    while (this.running || this.batch.length > 0) {
      if (this.running) await this.running;
      else this.start();
    }
  }

  private start(): void {
    const batch = this.batch;
    this.batch = [];
    this.chars = 0;
    this.running = this.validate(batch).finally(() => {
      this.running = undefined;
    });
  }

  private async validate(batch: SpiDocument[]): Promise<void> {
    let found: SchemaViolation[];
    try {
      found = await validateSpiDocuments(batch);
    } catch (error) {
      // The validator itself failed (e.g. out of wasm memory): the documents are not proven valid.
      const message = `could not be validated: ${(error as Error).message}`;
      found = batch.map((document) => ({ document: document.name, line: null, message }));
    }
    this.violationCount += found.length;
    this.violations.push(...found.slice(0, KEPT_VIOLATIONS - this.violations.length));
  }
}
