import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { formatProblem } from "../load/text/inputProblem.js";
import type { CommandIo } from "./commandIo.js";
import { resolveDataDir } from "./dataFolder.js";

export interface DnsOptions {
  data?: string | undefined;
  json?: boolean | undefined;
}

/**
 * `spi-static dns`: the records on stdout; exit 1 when the data has errors, which go to stderr
 * (so `spi-static dns > records.zone` never writes them into a zone), or with `--json` to stdout.
 */
export async function dnsCommand(options: DnsOptions, io: CommandIo): Promise<ExitCode> {
  const dataDir = resolveDataDir(options.data);
  const { loadBroadcaster } = await import("../load/loadBroadcaster.js");
  const { discoveryRecordsOf, zoneFileText } = await import("../dns/discoveryRecords.js");
  const { broadcaster, problems } = await loadBroadcaster(dataDir);
  const errors = problems.filter((p) => p.severity === "error");
  if (broadcaster && errors.length === 0) {
    const records = discoveryRecordsOf(broadcaster);
    io.stdout(options.json ? JSON.stringify(records) : zoneFileText(records).trimEnd());
    return EXIT.ok;
  }
  if (options.json) io.stdout(JSON.stringify({ ok: false, problems: errors }));
  else io.stderr(errors.map(formatProblem).join("\n"));
  return EXIT.invalidInput;
}
