/** The command line cannot be run as given: printed as one line, exit code 2. */
export class UsageError extends Error {}
