import { type Command, InvalidArgumentError } from "commander";
import { buildSite } from "../buildSite.js";
import { formatProblem, InputError } from "../load/inputProblem.js";
import { EXIT } from "./exitCodes.js";
import { defaultDataDir } from "./defaultDataDir.js";

/** `--now` must name an instant, so a build never depends on the host's zone. */
export function parseInstant(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    throw new InvalidArgumentError("expected an ISO 8601 instant with a zone, e.g. 2026-11-23T04:00:00Z");
  }
  const instant = Date.parse(value);
  if (Number.isNaN(instant)) throw new InvalidArgumentError("not a valid date and time");
  return instant;
}

export function registerBuildCommand(program: Command) {
  program
    .command("build")
    .description("render every SI and PI document from the data folder into the output folder")
    .option("--data <dir>", "folder with provider.yaml, services/ and schedules/", defaultDataDir())
    .option("--out <dir>", "output folder, hosted as the site root", "out")
    .option("--now <instant>", "the build's clock (ISO instant); makes a build reproducible", parseInstant)
    .option("--quiet", "print nothing on success")
    .option("--json", "print the summary as one line of JSON")
    .action(async (options: { data: string; out: string; now?: number; quiet?: boolean; json?: boolean }) => {
      try {
        const summary = await buildSite({ dataDir: options.data, outDir: options.out, now: options.now ?? Date.now() });
        if (options.json) {
          console.log(JSON.stringify({ ok: true, ...summary }));
        } else if (!options.quiet) {
          console.log(
            `spi-static: ${summary.rendered} documents rendered for ${summary.services} services around ${summary.today}, ` +
              `${summary.written} written, ${summary.unchanged} unchanged in ${(summary.milliseconds / 1000).toFixed(2)} s → ${options.out}`,
          );
        }
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        if (options.json) {
          console.log(JSON.stringify({ ok: false, problems: error.problems }));
        } else {
          for (const problem of error.problems) console.error(formatProblem(problem));
          const count = error.problems.filter((p) => p.severity === "error").length;
          console.error(`spi-static: ${count} error(s) in ${options.data}; nothing was written`);
        }
        process.exitCode = EXIT.invalidInput;
      }
    });
}
