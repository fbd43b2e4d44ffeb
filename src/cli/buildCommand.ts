import type { Command } from "commander";
import { DEMO_KEYS_FILE, MissingKeysError } from "../edge/apiKeys.js";
import { formatProblem, InputError } from "../load/inputProblem.js";
import { BuildLockBusyError } from "../publish/buildLock.js";
import { HostChangeError } from "../publish/hostChange.js";
import { PublishError } from "../publish/publishError.js";
import { countOf } from "./countOf.js";
import { resolveDataDir } from "./dataFolder.js";
import { EXIT } from "./exitCodes.js";
import { parseInstant, parseKeysFilePath, parseSeconds } from "./optionParsers.js";
import { progressLine } from "./progressLine.js";
import { UsageError } from "./usageError.js";

export function registerBuildCommand(program: Command) {
  program
    .command("build")
    .description("render every SI and PI document from the data folder into the output folder")
    .option("--data <dir>", "folder with provider.yaml, services/ and schedules/ (default: ./data)")
    .option("--out <dir>", "output folder, hosted as the site root", "out")
    .option(
      "--now <instant>",
      "the build's clock (ISO instant); makes a build reproducible",
      parseInstant,
    )
    .option("--quiet", "print nothing on success")
    .option("--json", "print the summary as one line of JSON")
    .option(
      "--change-host",
      "publish under a changed radiodnsHost, deleting the PI files under the old one (clients that know the old URLs get 404)",
    )
    .option(
      "--keep-going",
      "publish the services without errors and list the broken ones (exit code 1) instead of writing nothing",
    )
    .option(
      "--keys-file <path>",
      "API keys for the edge rules, one per line (default: $SPI_API_KEYS, else the data folder's keys.dev.txt or keys.demo.txt)",
      parseKeysFilePath,
    )
    .option(
      "--keys-at-edge",
      "build without keys: the deployment's API_KEY_SHA256 secret brings their digests (without keys and without this, the build refuses)",
    )
    .option(
      "--force",
      "render and compare every document even when the last build used the same program, data and keys today",
    )
    .option(
      "--wait <seconds>",
      "wait this long for another build on the same --out to finish",
      parseSeconds,
      0,
    )
    .action(
      async (options: {
        data?: string;
        out: string;
        now?: number;
        quiet?: boolean;
        json?: boolean;
        wait: number;
        keysFile?: string;
        keysAtEdge?: boolean;
        keepGoing?: boolean;
        changeHost?: boolean;
        force?: boolean;
      }) => {
        const dataDir = resolveDataDir(options.data);
        const progress = options.quiet || options.json ? undefined : progressLine();
        try {
          const { buildSite } = await import("../buildSite.js");
          const summary = await buildSite({
            dataDir,
            outDir: options.out,
            now: options.now ?? Date.now(),
            keys: {
              keysFile: options.keysFile,
              keysList: process.env.SPI_API_KEYS,
              atEdge: options.keysAtEdge,
            },
            publish: { lock: { waitMs: options.wait * 1000 }, onProgress: progress?.update },
            keepGoing: options.keepGoing,
            force: options.force,
            changeHost: options.changeHost,
          });
          progress?.clear();
          const broken = summary.brokenServices;
          if (broken.length > 0) process.exitCode = EXIT.invalidInput;
          if (options.json) {
            console.log(JSON.stringify({ ok: broken.length === 0, ...summary }));
          } else {
            if (!options.quiet || broken.length > 0) {
              for (const problem of summary.problems) console.error(formatProblem(problem));
            }
            if (broken.length > 0) {
              const kept = new Set(summary.keptServices);
              const named = broken.map((id) =>
                kept.has(id) ? `${id} (last night's PI files and SI entry kept)` : id,
              );
              console.error(
                `spi-static: left out ${countOf(broken.length, "service")} with errors: ${named.join(", ")}; the others were published`,
              );
            }
          }
          if (!options.json && !options.quiet) {
            const seconds = (summary.milliseconds / 1000).toFixed(2);
            console.log(
              summary.upToDate
                ? `spi-static: up to date: the ${countOf(summary.unchanged, "file")} in ${options.out} were built at ${summary.builtAt} ` +
                    `from the same program, data and keys for ${summary.today}; checked in ${seconds} s (--force renders anyway)`
                : `spi-static: ${summary.rendered} documents rendered for ${countOf(summary.services, "service")} around ${summary.today}, ` +
                    `${summary.written} written, ${summary.unchanged} unchanged, ${summary.removed} removed in ${seconds} s → ${options.out}`,
            );
            if (summary.foreign.length > 0) {
              console.log(
                `spi-static: ${countOf(summary.foreign.length, "file")} in ${options.out} not written by spi-static, left alone: ` +
                  `${summary.foreign.slice(0, 10).join(", ")}${summary.foreign.length > 10 ? ", …" : ""}`,
              );
            }
            if (summary.keys.demo) {
              const which = summary.keys.origin.endsWith(DEMO_KEYS_FILE)
                ? "the public demo key"
                : "only the development key";
              console.error(
                `spi-static: the edge rules accept ${which} of ${summary.keys.origin}, for serve and verify ` +
                  `on this machine; deploy with your own keys (README: "Edge rules and keys")`,
              );
            }
          }
        } catch (error) {
          progress?.clear();
          if (error instanceof PublishError || error instanceof BuildLockBusyError) {
            const busy = error instanceof BuildLockBusyError;
            if (options.json) {
              console.log(
                JSON.stringify({
                  ok: false,
                  error: error.message,
                  path: busy ? error.lockPath : error.path,
                }),
              );
            } else {
              console.error(
                `spi-static: ${error.message}${busy ? "" : "; the files already published are intact"}`,
              );
            }
            process.exitCode = busy ? EXIT.busy : EXIT.failure;
            return;
          }
          if (error instanceof MissingKeysError || error instanceof HostChangeError) {
            throw new UsageError(error.message);
          }
          if (!(error instanceof InputError)) throw error;
          if (options.json) {
            console.log(JSON.stringify({ ok: false, problems: error.problems }));
          } else {
            for (const problem of error.problems) console.error(formatProblem(problem));
            const count = error.problems.filter((p) => p.severity === "error").length;
            console.error(
              `spi-static: ${countOf(count, "error")} in ${dataDir}; nothing was written`,
            );
          }
          process.exitCode = EXIT.invalidInput;
        }
      },
    );
}
