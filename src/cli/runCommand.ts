import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { SpiStaticError } from "../exit/spiStaticError.js";
import type { CommandIo } from "./commandIo.js";

/** A command: it reports through `io` and returns its exit code, or throws a SpiStaticError. */
export type CommandFunction<Options> = (options: Options, io: CommandIo) => Promise<ExitCode>;

/**
 * The one boundary where a thrown error becomes output and an exit code: a SpiStaticError says
 * both itself (its kind, its lines, its JSON report); anything else is an unexpected failure,
 * exit 3. With `json`, any failure is one line of JSON on stdout, as a success is, and is said
 * on stderr too: cron mails and CI logs show what a `--json >> log` night did not print.
 */
export async function runCommand<Options extends object>(
  command: CommandFunction<Options>,
  options: Options,
  io: CommandIo,
): Promise<ExitCode> {
  try {
    return await command(options, io);
  } catch (error) {
    const json = "json" in options && options.json === true;
    if (!(error instanceof SpiStaticError)) {
      const message = error instanceof Error ? error.message : String(error);
      if (json) io.stdout(JSON.stringify({ ok: false, error: message }));
      io.stderr(`spi-static: ${message}`);
      return EXIT.failure;
    }
    if (json) io.stdout(JSON.stringify({ ok: false, ...error.toJsonReport() }));
    io.stderr(error.describe().join("\n"));
    return error.exitCode;
  }
}
