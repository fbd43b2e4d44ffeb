import { DEMO_KEYS_FILE } from "../edge/apiKeys.js";
import {
  type AssetLimit,
  assetLimitProblem,
  deployedAssets,
  listDeployFolder,
} from "../edge/assetLimit.js";
import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { printable } from "../exit/printableText.js";
import { UsageError } from "../exit/spiStaticError.js";
import { formatProblem } from "../load/text/inputProblem.js";
import type { CommandIo } from "./commandIo.js";
import { countOf } from "./countOf.js";
import { resolveDataDir } from "./dataFolder.js";
import { progressLine } from "./progressLine.js";

export interface BuildOptions {
  data?: string | undefined;
  out: string;
  now?: number | undefined;
  quiet?: boolean | undefined;
  json?: boolean | undefined;
  /** Seconds to wait for another build on the same `out` to finish. */
  wait: number;
  keysFile?: string | undefined;
  keysAtEdge?: boolean | undefined;
  keepGoing?: boolean | undefined;
  changeHost?: boolean | undefined;
  force?: boolean | undefined;
  /** Threads that may parse data files at once; undefined: the machine's cores. */
  jobs?: number | undefined;
  /** The Workers plan whose asset limit out/ is counted against; off: documents not deployed as assets. */
  assetLimit?: AssetLimit | undefined;
}

/** `spi-static build`: renders and publishes the site, then prints its summary. */
export async function buildCommand(options: BuildOptions, io: CommandIo): Promise<ExitCode> {
  if (options.keysAtEdge && (options.keysFile !== undefined || io.env.SPI_API_KEYS?.trim())) {
    throw new UsageError(
      `--keys-at-edge builds without keys, but ${options.keysFile !== undefined ? "--keys-file" : "SPI_API_KEYS"} gives some: drop one`,
    );
  }
  const dataDir = resolveDataDir(options.data, options.out);
  const progress = options.quiet || options.json ? undefined : progressLine(io.terminal);
  const { buildSite } = await import("../build/buildSite.js");
  const summary = await buildSite({
    dataDir,
    outDir: options.out,
    now: options.now ?? Date.now(),
    keys: { keysFile: options.keysFile, keysList: io.env.SPI_API_KEYS, atEdge: options.keysAtEdge },
    publish: { lock: { waitMs: options.wait * 1000 }, onProgress: progress?.update },
    keepGoing: options.keepGoing,
    force: options.force,
    changeHost: options.changeHost,
    jobs: options.jobs,
  }).finally(() => progress?.clear());
  const deploy = await listDeployFolder(options.out);
  const assetFiles = deployedAssets(deploy.paths, deploy.assetsIgnore).length;
  const tooMany = assetLimitProblem(assetFiles, options.assetLimit ?? "free", options.out);
  if (tooMany) summary.problems.push(tooMany);
  const broken = summary.brokenServices;
  const exitCode = broken.length > 0 ? EXIT.invalidInput : EXIT.ok;
  // --json: the summary on stdout; a failed night is said on stderr as well, for cron's mail.
  if (options.json) io.stdout(JSON.stringify({ ok: broken.length === 0, ...summary, assetFiles }));
  const silent = options.quiet || options.json;
  if (summary.problems.length > 0 && (!silent || broken.length > 0)) {
    io.stderr(summary.problems.map(formatProblem).join("\n"));
  }
  if (!options.json) for (const note of summary.notes) io.stderr(`spi-static: ${note}`);
  if (broken.length > 0) {
    const kept = new Set(summary.keptServices);
    const named = broken.map((id) =>
      kept.has(id) ? `${printable(id)} (last night's PI files and SI entry kept)` : printable(id),
    );
    io.stderr(
      `spi-static: left out ${countOf(broken.length, "service")} with errors: ${named.join(", ")}; the others were published`,
    );
  }
  if (silent) return exitCode;
  const seconds = (summary.milliseconds / 1000).toFixed(2);
  io.stdout(
    summary.upToDate
      ? `spi-static: up to date: the ${countOf(summary.unchanged, "file")} in ${options.out} were built at ${summary.builtAt} ` +
          `from the same program, data and keys for ${summary.today}; checked in ${seconds} s (--force renders anyway)`
      : `spi-static: ${summary.rendered} documents rendered for ${countOf(summary.services, "service")} around ${summary.today}` +
          (summary.reused > 0 ? ` (${summary.reused} more of unchanged inputs reused)` : "") +
          `, ${summary.written} written, ${summary.unchanged} unchanged, ${summary.removed} removed in ${seconds} s → ${options.out}`,
  );
  if (summary.foreign.length > 0) {
    io.stdout(
      `spi-static: ${countOf(summary.foreign.length, "file")} in ${options.out} not written by spi-static, left alone: ` +
        `${summary.foreign.slice(0, 10).map(printable).join(", ")}${summary.foreign.length > 10 ? ", …" : ""}`,
    );
  }
  if (summary.keys.demo) {
    const which = summary.keys.origin.endsWith(DEMO_KEYS_FILE)
      ? "the public demo key"
      : "only the development key";
    io.stderr(
      `spi-static: the edge rules accept ${which} of ${summary.keys.origin}, for serve and verify ` +
        `on this machine; deploy with your own keys (docs/edge-rules.md, "Keys")`,
    );
  }
  return exitCode;
}
