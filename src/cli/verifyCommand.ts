import type { Command } from "commander";
import { parseInstant } from "./buildCommand.js";
import { EXIT } from "./exitCodes.js";

interface VerifyCommandOptions {
  key?: string;
  now?: number;
  json?: boolean;
  timeout: string;
}

export function registerVerifyCommand(program: Command) {
  program
    .command("verify")
    .description(
      "check a deployed site (or the local preview) like a client would; exit 3 if any check fails",
    )
    .argument("<baseUrl>", "the site root, e.g. https://spi.example.org or http://127.0.0.1:8080")
    .option(
      "--key <key>",
      "a valid API key (default: $SPI_VERIFY_KEY); without one, keyed checks are skipped",
    )
    .option("--now <instant>", "the clock the site should agree with (ISO instant)", parseInstant)
    .option("--timeout <seconds>", "per request", "15")
    .option("--json", "print the report as one line of JSON")
    .addHelpText(
      "after",
      `
Checks: open SI (no stream URLs), keyed SI, 403 for an invalid key, a PI per service for today,
401 without a key, 404 for an unknown service and for dates outside the window, 400 for a
malformed date, every spelling of the keyed SI's path without a key, and the schema validity
of every document fetched. Exit codes: 0 all passed, 2 usage error, 3 a check failed.`,
    )
    .action(async (baseUrl: string, options: VerifyCommandOptions) => {
      const { VerifyUsageError, verifySite } = await import("../verify/verifySite.js");
      try {
        const report = await verifySite({
          baseUrl,
          key: options.key ?? process.env.SPI_VERIFY_KEY,
          now: options.now ?? Date.now(),
          timeoutMs: Number(options.timeout) * 1000,
        });
        if (options.json) {
          console.log(JSON.stringify({ baseUrl, ...report }));
        } else {
          for (const check of report.checks) {
            const mark = check.skipped ? "-" : check.ok ? "✓" : "✗";
            console.log(
              `${mark} ${check.name}: ${check.skipped ? "skipped, " : ""}${check.detail}`,
            );
          }
          const failed = report.checks.filter((c) => !c.ok).length;
          const skipped = report.checks.filter((c) => c.skipped).length;
          const passed = report.checks.length - failed - skipped;
          console.log(
            `spi-static verify: ${passed} passed, ${failed} failed, ${skipped} skipped — ${baseUrl}`,
          );
        }
        if (!report.ok) process.exitCode = EXIT.failure;
      } catch (error) {
        if (!(error instanceof VerifyUsageError)) throw error;
        console.error(`spi-static verify: ${error.message}`);
        process.exitCode = EXIT.usage;
      }
    });
}
