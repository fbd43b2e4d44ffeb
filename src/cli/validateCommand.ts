import type { Command } from "commander";
import { formatProblem } from "../load/inputProblem.js";
import { parseInstant } from "./buildCommand.js";
import { defaultDataDir } from "./defaultDataDir.js";
import { EXIT } from "./exitCodes.js";

export interface ValidateOptions {
  data: string;
  now?: number;
  json?: boolean;
}

export function registerValidateCommand(program: Command) {
  program
    .command("validate")
    .description(
      "check the data folder without writing anything; every error and warning with its file:line:column",
    )
    .option("--data <dir>", "folder with provider.yaml, services/ and schedules/", defaultDataDir())
    .option(
      "--now <instant>",
      "the clock whose build window is checked (ISO instant)",
      parseInstant,
    )
    .option("--json", "print the report as one line of JSON")
    .action(async (options: ValidateOptions) => {
      const { lines, exitCode } = await validate(options);
      for (const line of lines) console.log(line);
      process.exitCode = exitCode;
    });
}

/** What `spi-static validate` prints, line by line, and its exit code: 1 on any error. */
export async function validate(
  options: ValidateOptions,
): Promise<{ lines: string[]; exitCode: number }> {
  const { validateData } = await import("../validateData.js");
  const { problems, brokenServices, scheduled } = await validateData(
    options.data,
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
  const verdict = errors === 0 ? "valid" : `invalid (${errors} ${plural(errors, "error")})`;
  const summary =
    `spi-static: ${options.data} is ${verdict}, ${warnings} ${plural(warnings, "warning")}, ` +
    `${services} ${plural(services, "service")} ready to build`;
  return { lines: [...problems.map(formatProblem), summary], exitCode };
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}
