import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { formatProblem, InputError } from "../load/inputProblem.js";
import { EXIT } from "./exitCodes.js";
import { parseBaseUrl, parseInstant, parseKeysFilePath, parseTimeout } from "./optionParsers.js";
import { UsageError } from "./usageError.js";

interface VerifyCommandOptions {
  key?: string;
  keysFile?: string;
  withoutKey?: boolean;
  openPi?: boolean;
  now?: number;
  json?: boolean;
  timeout: number;
}

/** The first key of a keys file, read as the build reads it (comments and blank lines skipped). */
async function firstKeyOf(path: string): Promise<string> {
  const { parseKeysFile } = await import("../edge/apiKeys.js");
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `--keys-file ${path}: ${error.code === "ENOENT" ? "no such file" : error.message}`,
    );
  });
  const [key] = parseKeysFile(text, path);
  if (key === undefined) throw new UsageError(`${path} holds no key`);
  return key;
}

export function registerVerifyCommand(program: Command) {
  program
    .command("verify")
    .description(
      "check a deployed site (or the local preview) like a client would; exit 3 if any check fails",
    )
    .argument(
      "<baseUrl>",
      "the site root, e.g. https://spi.example.org or http://127.0.0.1:8080",
      parseBaseUrl,
    )
    .option("--key <key>", "a valid API key (default: $SPI_VERIFY_KEY)")
    .option(
      "--keys-file <path>",
      "take the key from this keys file (its first key)",
      parseKeysFilePath,
    )
    .option(
      "--without-key",
      "check without a key: the checks that need one are skipped, as expected (otherwise a skip fails)",
    )
    .option(
      "--open-pi",
      "the site serves PI without a key (discovery.pi: open): expect 200, not 401",
    )
    .option("--now <instant>", "the clock the site should agree with (ISO instant)", parseInstant)
    .option("--timeout <seconds>", "per request", parseTimeout, 15)
    .option("--json", "print the report as one line of JSON")
    .addHelpText(
      "after",
      `
Checks: open SI (no stream URLs), keyed SI, 403 for an invalid key, a PI per service for today,
401 without a key (200 with --open-pi), PI by the bearer path of every DAB/FM bearer the SI
lists (the same document as the id/ path), 404 for an unknown service and for dates outside the window, 400 for a
malformed date, every spelling of the keyed SI's path without a key, and the schema validity
of every document fetched. Without a key the checks that need one are skipped, which fails
unless --without-key says it is expected. Exit codes: 0 all passed, 2 usage error, 3 a check
failed or the site cannot be reached.`,
    )
    .action(async (baseUrl: string, options: VerifyCommandOptions) => {
      const { VerifyUsageError, verifySite } = await import("../verify/verifySite.js");
      try {
        const key =
          options.keysFile !== undefined
            ? await firstKeyOf(options.keysFile)
            : (options.key ?? process.env.SPI_VERIFY_KEY);
        const report = await verifySite({
          baseUrl,
          key,
          withoutKey: options.withoutKey,
          openPi: options.openPi,
          now: options.now ?? Date.now(),
          timeoutMs: options.timeout * 1000,
        });
        if (options.json) {
          console.log(JSON.stringify({ baseUrl, ...report }));
        } else {
          for (const check of report.checks) {
            const mark = !check.ok ? "✗" : check.skipped ? "-" : "✓";
            console.log(
              `${mark} ${check.name}: ${check.skipped ? "skipped, " : ""}${check.detail}`,
            );
          }
          const passed = report.checks.filter((c) => c.ok && !c.skipped).length;
          const failed = report.checks.filter((c) => !c.ok).length;
          const skipped = report.checks.filter((c) => c.skipped).length;
          console.log(
            `spi-static verify: ${passed} passed, ${failed} failed, ${skipped} skipped — ${baseUrl}`,
          );
        }
        if (!report.ok) process.exitCode = EXIT.failure;
      } catch (error) {
        if (error instanceof InputError) {
          for (const problem of error.problems) console.error(formatProblem(problem));
          process.exitCode = EXIT.usage;
          return;
        }
        if (!(error instanceof VerifyUsageError)) throw error;
        throw new UsageError(error.message);
      }
    });
}
