import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { formatProblem } from "../load/text/inputProblem.js";
import type { CommandIo } from "./commandIo.js";
import { countOf } from "./countOf.js";
import { resolveDataDir } from "./dataFolder.js";

export interface ValidateOptions {
  data?: string | undefined;
  now?: number | undefined;
  json?: boolean | undefined;
}

/** `spi-static validate`: the report on stdout; exit 1 on any error. */
export async function validateCommand(options: ValidateOptions, io: CommandIo): Promise<ExitCode> {
  const { lines, exitCode } = await validate(options);
  // One write: a file with 100k warnings took seconds when printed line by line.
  io.stdout(lines.join("\n"));
  return exitCode;
}

/** What `spi-static validate` prints, line by line, and its exit code: 1 on any error. */
export async function validate(
  options: ValidateOptions,
): Promise<{ lines: string[]; exitCode: ExitCode }> {
  const dataDir = resolveDataDir(options.data);
  const { loadAndSchedule } = await import("../loadAndSchedule.js");
  const { problems, brokenServices, scheduled } = await loadAndSchedule(
    dataDir,
    options.now ?? Date.now(),
  );
  const errors = problems.filter((p) => p.severity === "error").length;
  const warnings = problems.length - errors;
  const exitCode = errors === 0 ? EXIT.ok : EXIT.invalidInput;
  if (options.json) {
    const report = { ok: errors === 0, errors, warnings, brokenServices, problems };
    return { lines: [JSON.stringify(report)], exitCode };
  }
  const services = scheduled?.services.length ?? 0;
  const verdict = errors === 0 ? "valid" : `invalid (${countOf(errors, "error")})`;
  const summary =
    `spi-static: ${dataDir} is ${verdict}, ${countOf(warnings, "warning")}, ` +
    `${countOf(services, "service")} ready to build`;
  return { lines: [...problems.map(formatProblem), summary], exitCode };
}
