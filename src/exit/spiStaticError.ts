import { EXIT, type ExitCode, type FailureKind } from "./exitCodes.js";

/**
 * The base of every error that ends a run with a documented exit code. A subclass names its
 * `kind`; the exit code follows from EXIT alone, and the CLI's boundary (src/cli/runCommand.ts)
 * prints any of them the same way, so no command matches error classes one by one.
 *
 * Stages return problems as values; these are thrown only where a run must stop.
 */
export abstract class SpiStaticError extends Error {
  abstract readonly kind: FailureKind;

  get exitCode(): ExitCode {
    return EXIT[this.kind];
  }

  /** The lines a person reads on stderr. */
  describe(): string[] {
    return [`spi-static: ${this.message}`];
  }

  /** What `--json` prints besides `ok: false`. */
  toJsonReport(): Record<string, unknown> {
    return { error: this.message };
  }
}

/** The command line cannot be run as given: printed as one line, exit code 2. */
export class UsageError extends SpiStaticError {
  readonly kind = "usage";
}
