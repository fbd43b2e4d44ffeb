/** Where a value sits in an input file: what every error message points at. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
  /** The field's path in the file, e.g. `grid[0].slots[3].start`. */
  field: string;
}

export interface InputProblem extends SourceRef {
  severity: "error" | "warning";
  message: string;
}

export function formatSourceRef(ref: SourceRef): string {
  return `${ref.file}:${ref.line}:${ref.column}${ref.field ? ` ${ref.field}` : ""}`;
}

export function formatProblem(problem: InputProblem): string {
  const tag = problem.severity === "warning" ? "warning: " : "";
  return `${formatSourceRef(problem)}: ${tag}${problem.message}`;
}

/** Thrown by the load and schedule stages when the input cannot be published. */
export class InputError extends Error {
  readonly problems: InputProblem[];

  constructor(problems: InputProblem[]) {
    const errors = problems.filter((p) => p.severity === "error");
    super(`${errors.length} error(s) in the input:\n${errors.map(formatProblem).join("\n")}`);
    this.name = "InputError";
    this.problems = problems;
  }
}

/** `grid[0].slots[3].start` from `["grid", 0, "slots", 3, "start"]`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** A value as a message quotes it: in double quotes, cut short so a message stays one line. */
export function quoted(value: string): string {
  const characters = Array.from(value);
  return JSON.stringify(characters.length > 60 ? `${characters.slice(0, 59).join("")}…` : value);
}
