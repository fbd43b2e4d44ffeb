import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { printable } from "../exit/printableText.js";
import { UsageError } from "../exit/spiStaticError.js";
import { firstKeyOfFile, keyFromEnvironment } from "./clientKey.js";
import type { CommandIo } from "./commandIo.js";

export interface VerifyCommandOptions {
  /** The site root, e.g. https://spi.example.org. */
  baseUrl: string;
  key?: string | undefined;
  keysFile?: string | undefined;
  withoutKey?: boolean | undefined;
  openPi?: boolean | undefined;
  now?: number | undefined;
  json?: boolean | undefined;
  quiet?: boolean | undefined;
  /** Seconds for the whole run. */
  timeout: number;
  /** Nights late that fail the freshness check. */
  staleAfter: number;
}

/**
 * `spi-static verify`: every check on stdout (with --quiet, only failed and warned ones, on
 * stderr: cron mails only a bad night); exit 3 when one fails or the site cannot be reached.
 */
export async function verifyCommand(
  options: VerifyCommandOptions,
  io: CommandIo,
): Promise<ExitCode> {
  if (options.key !== undefined && options.keysFile !== undefined) {
    throw new UsageError("--key and --keys-file both name a key: give one");
  }
  const key =
    options.keysFile !== undefined
      ? await firstKeyOfFile(options.keysFile)
      : (options.key ?? keyFromEnvironment("SPI_VERIFY_KEY", io.env.SPI_VERIFY_KEY));
  const { verifySite } = await import("../verify/verifySite.js");
  const report = await verifySite({
    baseUrl: options.baseUrl,
    key,
    withoutKey: options.withoutKey,
    openPi: options.openPi,
    now: options.now ?? Date.now(),
    timeoutMs: options.timeout * 1000,
    staleAfter: options.staleAfter,
  });
  const exitCode = report.ok ? EXIT.ok : EXIT.failure;
  if (options.json) {
    io.stdout(JSON.stringify({ baseUrl: options.baseUrl, ...report }));
    return exitCode;
  }
  const shown = options.quiet ? report.checks.filter((c) => !c.ok || c.warning) : report.checks;
  const lines = shown.map((check) => {
    const mark = !check.ok ? "✗" : check.warning ? "!" : check.skipped ? "-" : "✓";
    // The detail can quote what the site answered: one line, whatever it sent.
    return `${mark} ${check.name}: ${check.skipped ? "skipped, " : ""}${printable(check.detail)}`;
  });
  const passed = report.checks.filter((c) => c.ok && !c.skipped).length;
  const failed = report.checks.filter((c) => !c.ok).length;
  const skipped = report.checks.filter((c) => c.skipped).length;
  const warned = report.checks.filter((c) => c.warning).length;
  lines.push(
    `spi-static verify: ${passed} passed${warned > 0 ? ` (${warned} with a warning)` : ""}, ${failed} failed, ${skipped} skipped — ${options.baseUrl}`,
  );
  if (!options.quiet) io.stdout(lines.join("\n"));
  else if (shown.length > 0) io.stderr(lines.join("\n"));
  return exitCode;
}
