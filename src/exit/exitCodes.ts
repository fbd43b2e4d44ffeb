/**
 * Exit codes, as documented in docs/commands.md: the one table from a kind of problem to the number a
 * cron job or a script sees.
 */
export const EXIT = {
  ok: 0,
  /** The input (data/) has errors: nothing was written (with --keep-going: the valid services were). */
  invalidInput: 1,
  /** The command line itself is wrong. */
  usage: 2,
  /** Anything else, e.g. the output folder cannot be written: the published files are intact. */
  failure: 3,
  /** Another build is writing the same output folder (e.g. overlapping cron runs): nothing was written. */
  busy: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What went wrong, as far as the exit code tells: every kind but `ok`. */
export type FailureKind = Exclude<keyof typeof EXIT, "ok">;
