import type { Command } from "commander";
import { formatProblem } from "../load/inputProblem.js";
import { validateData } from "../validateData.js";
import { parseInstant } from "./buildCommand.js";
import { defaultDataDir } from "./defaultDataDir.js";
import { EXIT } from "./exitCodes.js";

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
    .action(async (options: { data: string; now?: number; json?: boolean }) => {
      const { problems, brokenServices, scheduled } = await validateData(
        options.data,
        options.now ?? Date.now(),
      );
      const errors = problems.filter((p) => p.severity === "error").length;
      const warnings = problems.length - errors;
      if (options.json) {
        console.log(
          JSON.stringify({ ok: errors === 0, errors, warnings, brokenServices, problems }),
        );
      } else {
        for (const problem of problems) console.log(formatProblem(problem));
        const services = scheduled?.services.length ?? 0;
        const verdict = errors === 0 ? "valid" : `invalid (${errors} ${plural(errors, "error")})`;
        console.log(
          `spi-static: ${options.data} is ${verdict}, ${warnings} ${plural(warnings, "warning")}, ` +
            `${services} ${plural(services, "service")} ready to build`,
        );
      }
      process.exitCode = errors === 0 ? EXIT.ok : EXIT.invalidInput;
    });
}

function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}
