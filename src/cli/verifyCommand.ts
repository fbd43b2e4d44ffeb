import { readFile } from "node:fs/promises";
import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { UsageError } from "../exit/spiStaticError.js";
import { formatProblem } from "../load/inputProblem.js";
import type { CommandIo } from "./commandIo.js";
import { parseApiKey } from "./optionParsers.js";

export interface VerifyCommandOptions {
  /** The site root, e.g. https://spi.example.org. */
  baseUrl: string;
  key?: string | undefined;
  keysFile?: string | undefined;
  withoutKey?: boolean | undefined;
  openPi?: boolean | undefined;
  now?: number | undefined;
  json?: boolean | undefined;
  /** Seconds per request. */
  timeout: number;
}

/** `spi-static verify`: every check on stdout; exit 3 when one fails or the site cannot be reached. */
export async function verifyCommand(
  options: VerifyCommandOptions,
  io: CommandIo,
): Promise<ExitCode> {
  if (options.key !== undefined && options.keysFile !== undefined) {
    throw new UsageError("--key and --keys-file both name a key: give one");
  }
  const key =
    options.keysFile !== undefined
      ? await firstKeyOf(options.keysFile)
      : (options.key ?? keyFromEnvironment(io.env.SPI_VERIFY_KEY));
  const { verifySite } = await import("../verify/verifySite.js");
  const report = await verifySite({
    baseUrl: options.baseUrl,
    key,
    withoutKey: options.withoutKey,
    openPi: options.openPi,
    now: options.now ?? Date.now(),
    timeoutMs: options.timeout * 1000,
  });
  const exitCode = report.ok ? EXIT.ok : EXIT.failure;
  if (options.json) {
    io.stdout(JSON.stringify({ baseUrl: options.baseUrl, ...report }));
    return exitCode;
  }
  const lines = report.checks.map((check) => {
    const mark = !check.ok ? "✗" : check.skipped ? "-" : "✓";
    return `${mark} ${check.name}: ${check.skipped ? "skipped, " : ""}${check.detail}`;
  });
  const passed = report.checks.filter((c) => c.ok && !c.skipped).length;
  const failed = report.checks.filter((c) => !c.ok).length;
  const skipped = report.checks.filter((c) => c.skipped).length;
  lines.push(
    `spi-static verify: ${passed} passed, ${failed} failed, ${skipped} skipped — ${options.baseUrl}`,
  );
  io.stdout(lines.join("\n"));
  return exitCode;
}

/** SPI_VERIFY_KEY, checked as --key is; set but empty is unset, as in a shell. */
function keyFromEnvironment(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return parseApiKey(value);
  } catch (error) {
    throw new UsageError(`SPI_VERIFY_KEY: ${error instanceof Error ? error.message : error}`);
  }
}

/**
 * The first key of a keys file, read as the build reads it (comments and blank lines skipped).
 * The file is named on the command line, so a bad one is a usage error here (exit 2), not input.
 */
async function firstKeyOf(path: string): Promise<string> {
  const { parseKeysFile } = await import("../edge/apiKeys.js");
  const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(
      `--keys-file ${path}: ${error.code === "ENOENT" ? "no such file" : error.message}`,
    );
  });
  const { keys, problems } = parseKeysFile(text, path);
  if (problems.length > 0) {
    throw new UsageError(problems.map(formatProblem).join("\nspi-static: "));
  }
  const [key] = keys;
  if (key === undefined) throw new UsageError(`${path} holds no key`);
  return key;
}
