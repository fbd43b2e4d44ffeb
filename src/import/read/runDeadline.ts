/**
 * `--timeout` bounds the whole import, not each request: a feed of 20 slow services with
 * `--timeout 2` stops after 2 s, not 20 × 14 × 2 s. Each request is given what is left.
 */
export class RunDeadline {
  private readonly end: number;

  constructor(readonly timeoutMs: number) {
    this.end = Date.now() + timeoutMs;
  }

  /** Milliseconds left for the next request; 0 once the run is over its time. */
  left(): number {
    return Math.max(0, this.end - Date.now());
  }

  passed(): boolean {
    return this.left() === 0;
  }

  /** Why a request was not made or not finished once the time is spent. */
  get spent(): string {
    const seconds = this.timeoutMs / 1000;
    return `too slow: the import did not finish within --timeout ${seconds} s (it bounds the whole run)`;
  }
}
