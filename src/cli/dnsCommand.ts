import type { Command } from "commander";
import { formatProblem } from "../load/inputProblem.js";
import { resolveDataDir } from "./dataFolder.js";
import { EXIT } from "./exitCodes.js";

export interface DnsOptions {
  data?: string;
  json?: boolean;
}

export function registerDnsCommand(program: Command) {
  program
    .command("dns")
    .description(
      "print the DNS records radios need to find the site: SRV records for radiodnsHost and the RadioDNS lookup names to register",
    )
    .option("--data <dir>", "folder with provider.yaml, services/ and schedules/ (default: ./data)")
    .option("--json", "print the records as one line of JSON")
    .action(async (options: DnsOptions) => {
      const { lines, exitCode } = await dns(options);
      // Problems on stderr, so `spi-static dns > records.zone` never writes them into a zone.
      const print = exitCode === EXIT.ok || options.json ? console.log : console.error;
      for (const line of lines) print(line);
      process.exitCode = exitCode;
    });
}

/** What `spi-static dns` prints and its exit code: 1 when the data has errors (listed, not records). */
export async function dns(options: DnsOptions): Promise<{ lines: string[]; exitCode: number }> {
  const dataDir = resolveDataDir(options.data);
  const { loadBroadcaster } = await import("../load/loadBroadcaster.js");
  const { discoveryRecordsOf, zoneFileText } = await import("../dns/discoveryRecords.js");
  const { broadcaster, problems } = await loadBroadcaster(dataDir);
  const errors = problems.filter((p) => p.severity === "error");
  if (broadcaster && errors.length === 0) {
    const records = discoveryRecordsOf(broadcaster);
    if (options.json) return { lines: [JSON.stringify(records)], exitCode: EXIT.ok };
    return { lines: [zoneFileText(records).trimEnd()], exitCode: EXIT.ok };
  }
  if (options.json) {
    return {
      lines: [JSON.stringify({ ok: false, problems: errors })],
      exitCode: EXIT.invalidInput,
    };
  }
  return { lines: errors.map(formatProblem), exitCode: EXIT.invalidInput };
}
