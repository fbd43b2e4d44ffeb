import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { WORKER_PATH } from "../edge/edgeFiles.js";
import { resolveDataDir } from "./dataFolder.js";
import { EXIT } from "./exitCodes.js";
import { parseInstant, parseKeysFilePath, parsePort } from "./optionParsers.js";

interface ServeOptions {
  out: string;
  port: number;
  host: string;
  now?: number;
  watch?: boolean;
  data?: string;
  keysFile?: string;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

function addServeOptions(command: Command): Command {
  return command
    .option("--out <dir>", "the built output folder", "out")
    .option("--port <n>", "port to listen on (0 picks a free one)", parsePort, 8080)
    .option(
      "--host <address>",
      "address to listen on; keys are refused over http except on loopback",
      "127.0.0.1",
    )
    .option(
      "--now <instant>",
      "serve the date window as at this ISO instant instead of the clock",
      parseInstant,
    )
    .option(
      "--data <dir>",
      "with --watch: folder with provider.yaml, services/ and schedules/ (default: ./data)",
    )
    .option(
      "--keys-file <path>",
      "with --watch: API keys for the builds, as for build (default: $SPI_API_KEYS, else the demo key)",
      parseKeysFilePath,
    );
}

export function registerServeCommand(program: Command) {
  addServeOptions(
    program
      .command("serve")
      .description(
        "preview the output folder locally behind the same edge rules Cloudflare runs (out/_worker.js)",
      ),
  )
    .option(
      "--watch",
      "build the data folder now and on every save, with a live programme grid at / (as `dev`)",
    )
    .addHelpText(
      "after",
      `
Plain static servers cannot stand in for this: they would hand out_keyed/ to anyone and answer
200 where the API answers 401/403/404. API_KEY_SHA256 in the environment replaces the key
digests built into the worker, as the deployment's secret does.`,
    )
    .action((options: ServeOptions) => serve(options));
  addServeOptions(
    program
      .command("dev")
      .description(
        "serve --watch: rebuild on every save and show the programme grid at the preview's root",
      ),
  ).action((options: ServeOptions) => serve({ ...options, watch: true }));
}

async function serve(options: ServeOptions) {
  const { startPreviewServer } = await import("../serve/previewServer.js");
  const { previewExamples } = await import("../serve/previewExamples.js");
  const keys = { keysFile: options.keysFile, keysList: process.env.SPI_API_KEYS };
  const dataDir = options.watch ? resolveDataDir(options.data) : (options.data ?? "data");
  let watcher: import("../serve/siteWatcher.js").SiteWatcher | undefined;
  let routes: import("../serve/previewServer.js").PreviewRoutes | undefined;
  if (options.watch) {
    const { startSiteWatcher } = await import("../serve/siteWatcher.js");
    const { previewPage } = await import("../serve/previewPage.js");
    const { developmentKey } = await import("../serve/developmentKey.js");
    watcher = await startSiteWatcher({
      dataDir,
      outDir: options.out,
      fixedNow: options.now,
      keys,
      // Only to a browser on this machine: on other addresses the rules refuse keys over http.
      devKey: LOOPBACK.test(options.host) ? await developmentKey(dataDir, keys) : undefined,
      log: (line) => console.error(line),
    });
    if (!existsSync(join(options.out, WORKER_PATH))) {
      console.error(
        `spi-static: nothing to serve: the first build failed (above) and ${options.out} holds no earlier one; fix it and start again`,
      );
      await watcher.close();
      process.exitCode = EXIT.invalidInput;
      return;
    }
    routes = previewPage(watcher);
  }
  const preview = await startPreviewServer({
    outDir: options.out,
    port: options.port,
    host: options.host,
    now: options.now,
    apiKeySha256: process.env.API_KEY_SHA256,
    routes,
  });
  const examples = await previewExamples(preview.origin, options.out, dataDir);
  const key = examples.key?.key ?? "<your key>";
  const auth = `-H "Authorization: ClientIdentifier ${key}"`;
  // One write, so a reader of the pipe (a script, a test) never sees half the banner.
  const banner = [
    `spi-static: previewing ${options.out} at ${preview.origin} through its _worker.js (Ctrl-C stops)`,
  ];
  if (watcher) {
    banner.push(`  programme grid: ${examples.origin}/  (rebuilds on every save in ${dataDir})`);
  }
  banner.push(`  open SI:  curl ${examples.siUrl}`);
  if (examples.keysRefused) {
    if (examples.piUrl) banner.push(`  PI:       curl ${examples.piUrl}   (401: needs a key)`);
    banner.push(
      `  keys are refused over plain http on ${new URL(examples.origin).hostname} (not loopback): ` +
        "listen on 127.0.0.1 or 0.0.0.0 to try keys from this machine, or put https in front",
    );
  } else {
    banner.push(`  keyed SI: curl ${auth} ${examples.siUrl}`);
    if (examples.piUrl) banner.push(`  PI:       curl ${auth} ${examples.piUrl}`);
    const keyOption = examples.key ? `--keys-file ${examples.key.file}` : `--key "${key}"`;
    banner.push(`  verify:   npx spi-static verify ${examples.origin} ${keyOption}`);
    for (const file of examples.refusedKeyFiles) {
      banner.push(
        `  (${file} holds no key this build accepts: use one of the keys the build was given)`,
      );
    }
  }
  console.log(banner.join("\n"));
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      preview
        .close()
        .then(() => watcher?.close())
        .then(resolve, resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
