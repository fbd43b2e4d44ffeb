import { existsSync } from "node:fs";
import { join } from "node:path";
import { WORKER_PATH } from "../edge/edgeFiles.js";
import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { UsageError } from "../exit/spiStaticError.js";
import type { CommandIo } from "./commandIo.js";
import { resolveDataDir } from "./dataFolder.js";

export interface ServeOptions {
  out: string;
  port: number;
  host: string;
  now?: number | undefined;
  watch?: boolean | undefined;
  data?: string | undefined;
  keysFile?: string | undefined;
}

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/;

/**
 * `spi-static serve` (and `dev`, with `watch`): previews the output folder until `io.signal`
 * aborts; exit 1 when the first build of `--watch` fails with nothing to serve.
 */
export async function serveCommand(options: ServeOptions, io: CommandIo): Promise<ExitCode> {
  if (options.keysFile !== undefined && !options.watch) {
    // Without --watch nothing is built: the served worker holds the keys its build was given.
    throw new UsageError(
      "--keys-file needs --watch: serve previews the folder as built; give the keys to build",
    );
  }
  const { startPreviewServer } = await import("../serve/previewServer.js");
  const { previewExamples } = await import("../serve/previewExamples.js");
  const keys = { keysFile: options.keysFile, keysList: io.env.SPI_API_KEYS };
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
      log: (line) => io.stderr(line),
    });
    if (!existsSync(join(options.out, WORKER_PATH))) {
      io.stderr(
        `spi-static: nothing to serve: the first build failed (above) and ${options.out} holds no earlier one; fix it and start again`,
      );
      await watcher.close();
      return EXIT.invalidInput;
    }
    routes = previewPage(watcher);
  }
  const preview = await startPreviewServer({
    outDir: options.out,
    port: options.port,
    host: options.host,
    now: options.now,
    apiKeySha256: io.env.API_KEY_SHA256,
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
  io.stdout(banner.join("\n"));
  await untilAborted(io.signal);
  await preview.close();
  await watcher?.close();
  return EXIT.ok;
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
