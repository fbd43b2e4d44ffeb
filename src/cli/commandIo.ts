/**
 * What a command may touch of the process, so that tests run commands in-process and read what
 * they printed. Every command is a function `(options, io) => Promise<ExitCode>`; it writes
 * through `io` and never reads `process.env`, writes to `process.stdout` or sets `process.exitCode`.
 */
export interface CommandIo {
  /** The environment the command reads: SPI_API_KEYS, SPI_VERIFY_KEY, API_KEY_SHA256. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Writes one or more lines to stdout (the newline after the last is added). */
  stdout(lines: string): void;
  /** Writes one or more lines to stderr (the newline after the last is added). */
  stderr(lines: string): void;
  /** stderr when it is a terminal, for a self-overwriting progress line; absent in cron logs, pipes and tests. */
  readonly terminal?: NodeJS.WriteStream | undefined;
  /**
   * For a command that runs until stopped (serve): a signal aborted on SIGINT or SIGTERM. Only
   * a command that asks for it stops gracefully; for every other one (a build) those signals
   * end the process at once, as they always did.
   */
  stopSignal(): AbortSignal;
}

/** What a finished command run amounts to: its exit code and everything it printed. */
export interface CommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}
