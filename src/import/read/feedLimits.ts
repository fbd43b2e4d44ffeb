import { MAX_DOCUMENT_BYTES } from "../../verify/fetchExactly.js";
import { FeedError } from "./feedError.js";

/**
 * How much a feed may be. An SI or PI document is kilobytes to a few MB, and a broadcaster's
 * window of PI a few hundred of them: anything beyond is not a feed, and is refused before it
 * is held in memory (a document is parsed whole, so memory follows these caps).
 */
export interface FeedLimits {
  documentBytes: number;
  feedBytes: number;
}

export const FEED_LIMITS: FeedLimits = {
  documentBytes: MAX_DOCUMENT_BYTES,
  feedBytes: 128 * 1024 * 1024,
};

/** The bytes read so far against the feed's cap. */
export class FeedBudget {
  private used = 0;
  readonly limits: FeedLimits;

  constructor(limits: FeedLimits) {
    this.limits = limits;
  }

  /** Counts a document's bytes; throws when it or the feed is too large. */
  take(bytes: number, source: string): void {
    if (bytes > this.limits.documentBytes) {
      throw new FeedError(
        `${source}: too large: over ${megabytes(this.limits.documentBytes)}, more than any SPI document; nothing was imported`,
      );
    }
    this.used += bytes;
    if (this.used > this.limits.feedBytes) {
      throw new FeedError(
        `${source}: too large: the feed's documents come to over ${megabytes(this.limits.feedBytes)} with it; nothing was imported`,
      );
    }
  }
}

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.floor(bytes / 1024 / 1024)} MB` : `${bytes} bytes`;
}
