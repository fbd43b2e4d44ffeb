/** Exit codes, as documented in the README. */
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
