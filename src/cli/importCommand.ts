import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { printable } from "../exit/printableText.js";
import { UsageError } from "../exit/spiStaticError.js";
import { formatProblem } from "../load/text/inputProblem.js";
import { firstKeyOfFile, keyFromEnvironment } from "./clientKey.js";
import type { CommandIo } from "./commandIo.js";
import { countOf } from "./countOf.js";

export interface ImportCommandOptions {
  /** Folders or files of SI/PI documents, or one http(s) URL: a live API's root. */
  sources: string[];
  data: string;
  timeZone: string;
  /** Service id → zone, for services not in the provider's zone. */
  serviceTimeZone?: Record<string, string> | undefined;
  key?: string | undefined;
  keysFile?: string | undefined;
  now?: number | undefined;
  /** Seconds per request to a live API. */
  timeout: number;
  force?: boolean | undefined;
  /** Fetch the feed's logos into the data folder as `logo` sources. */
  downloadLogos?: boolean | undefined;
  json?: boolean | undefined;
}

/**
 * `spi-static import`: the notes and the written folder's problems on stdout, then a summary;
 * exit 1 when the written data has errors to fix before it builds.
 */
export async function importCommand(
  options: ImportCommandOptions,
  io: CommandIo,
): Promise<ExitCode> {
  const [first = ""] = options.sources;
  const live = options.sources.length === 1 && /^https?:\/\//i.test(first);
  if (!live && options.sources.some((s) => /^https?:\/\//i.test(s))) {
    throw new UsageError("a live API is imported on its own: give its URL as the only source");
  }
  if (options.key !== undefined && options.keysFile !== undefined) {
    throw new UsageError("--key and --keys-file both name a key: give one");
  }
  const key = live
    ? options.keysFile !== undefined
      ? await firstKeyOfFile(options.keysFile)
      : (options.key ?? keyFromEnvironment("SPI_IMPORT_KEY", io.env.SPI_IMPORT_KEY))
    : undefined;
  if (key && /^http:/i.test(first) && !isLoopback(new URL(first).hostname)) {
    throw new UsageError(
      `refusing to send the API key in clear text to ${new URL(first).host}: use https:// (plain http is for a local preview)`,
    );
  }
  const { importToDataFolder } = await import("../import/importToDataFolder.js");
  const { formatNote } = await import("../import/importNote.js");
  const result = await importToDataFolder({
    from: live
      ? { api: { baseUrl: first, key: key || undefined, timeoutMs: options.timeout * 1000 } }
      : { files: options.sources },
    dataDir: options.data,
    timeZone: options.timeZone,
    serviceTimeZones: options.serviceTimeZone ?? {},
    now: options.now ?? Date.now(),
    force: Boolean(options.force),
    downloadLogos: options.downloadLogos ? { timeoutMs: options.timeout * 1000 } : undefined,
  });
  const errors = result.problems.filter((p) => p.severity === "error").length;
  // The exit is validate's of what was written: an SI-only feed is a valid data folder.
  const exitCode = errors > 0 ? EXIT.invalidInput : EXIT.ok;
  if (options.json) {
    io.stdout(JSON.stringify({ ok: exitCode === EXIT.ok, ...result }));
    return exitCode;
  }
  const verdict = [
    ...(result.programmes === 0 ? ["services only, no programmes (see the notes)"] : []),
    ...(errors > 0 ? [`${countOf(errors, "error")} to fix before building`] : []),
  ];
  io.stdout(
    [
      ...result.notes.map((note) => printable(formatNote(note))),
      ...result.problems.map(formatProblem),
      `spi-static: imported ${countOf(result.services, "service")} and ${countOf(result.programmes, "programme")} into ${options.data} (${countOf(result.files.length, "file")}); ${countOf(result.notes.length, "note")} on what the data cannot say; ${verdict.join("; ") || "valid"}`,
    ].join("\n"),
  );
  return exitCode;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}
