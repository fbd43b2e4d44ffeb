import { printable } from "../../exit/printableText.js";
import { SpiStaticError } from "../../exit/spiStaticError.js";

/** Where a value sits in an input file: what every error message points at. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
  /** The field's path in the file, e.g. `grid[0].slots[3].start`. */
  field: string;
}

/**
 * The origin of an entry loaded only to be rendered: rendering never reads where an entry came
 * from, and finding out could parse a file the input cache spared.
 */
export const NOT_LOCATED: SourceRef = Object.freeze({ file: "", line: 0, column: 0, field: "" });

export interface InputProblem extends SourceRef {
  severity: "error" | "warning";
  message: string;
}

export function formatSourceRef(ref: SourceRef): string {
  return `${ref.file}:${ref.line}:${ref.column}${ref.field ? ` ${ref.field}` : ""}`;
}

/** A problem as one line of output: what came from the file (its name, keys, values) escaped. */
export function formatProblem(problem: InputProblem): string {
  const tag = problem.severity === "warning" ? "warning: " : "";
  return printable(`${formatSourceRef(problem)}: ${tag}${problem.message}`);
}

/**
 * The input cannot be published: thrown where a run stops on its problems (the build, a keys
 * file), never inside load or schedule, which return problems as values.
 */
export class InputError extends SpiStaticError {
  readonly kind = "invalidInput";
  readonly problems: InputProblem[];

  /** `source`: the folder or file the problems are in, for the closing line. */
  constructor(
    problems: InputProblem[],
    readonly source = "the input",
  ) {
    const errors = problems.filter((p) => p.severity === "error");
    super(`${errors.length} error(s) in ${source}:\n${errors.map(formatProblem).join("\n")}`);
    this.name = "InputError";
    this.problems = problems;
  }

  /** Every problem (warnings too) with its file:line:column, then the count of errors. */
  override describe(): string[] {
    const errors = this.problems.filter((p) => p.severity === "error").length;
    return [
      ...this.problems.map(formatProblem),
      `spi-static: ${errors} ${errors === 1 ? "error" : "errors"} in ${this.source}; nothing was written`,
    ];
  }

  override toJsonReport(): Record<string, unknown> {
    return { problems: this.problems };
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

/** How much of a value from a file a message quotes, and how long a message or field may be. */
const QUOTED_CHARACTERS = 60;
const MESSAGE_CHARACTERS = 300;
const FIELD_CHARACTERS = 120;

/** A value from a file as a message shows it: quoted, and cut in the middle when long. */
export function quoteValue(value: string): string {
  return `"${excerpt(value, QUOTED_CHARACTERS)}"`;
}

/**
 * A problem as the load stage reports it: whatever a message or a field path (keys come from
 * the file too) took from the file, at most a short excerpt leaves the program. This is the one
 * place that holds for every message, including those that quote a value without quoteValue.
 */
export function boundProblem(problem: InputProblem): InputProblem {
  const message = excerpt(problem.message, MESSAGE_CHARACTERS);
  const field = excerpt(problem.field, FIELD_CHARACTERS);
  return message === problem.message && field === problem.field
    ? problem
    : { ...problem, field, message };
}

/** `text` when short enough, else its start and end around "…" (never half a surrogate pair). */
function excerpt(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let head = Math.ceil((limit - 1) * 0.6);
  let tail = text.length - (limit - 1 - head);
  if (/[\ud800-\udbff]/.test(text.charAt(head - 1))) head--;
  if (/[\udc00-\udfff]/.test(text.charAt(tail))) tail++;
  return `${text.slice(0, head)}…${text.slice(tail)}`;
}
