import { existsSync } from "node:fs";
import { join } from "node:path";
import { WORKER_PATH } from "../edge/edgeFiles.js";
import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import { UsageError } from "../exit/spiStaticError.js";
import type { PreviewRoutes, PreviewServer } from "../serve/previewServer.js";
import { OPEN_SI_PATH } from "../site/siteContract.js";
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
  const keys = { keysFile: options.keysFile, keysList: io.env.SPI_API_KEYS };
  const dataDir = options.watch ? resolveDataDir(options.data) : (options.data ?? "data");
  let watcher: import("../serve/siteWatcher.js").SiteWatcher | undefined;
  let routes: PreviewRoutes | undefined;
  if (options.watch) {
    // Keys the builds cannot take are the command line's (or the environment's) fault: said
    // once, exit 2, before anything is watched.
    const { resolveApiKeys } = await import("../edge/apiKeys.js");
    await resolveApiKeys(dataDir, keys);
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
  try {
    return await servePreview(options, io, dataDir, routes, watcher !== undefined);
  } finally {
    // Also when the preview cannot start: an open watcher would keep `dev` running for nothing.
    routes?.close();
    await watcher?.close();
  }
}

async function servePreview(
  options: ServeOptions,
  io: CommandIo,
  dataDir: string,
  routes: PreviewRoutes | undefined,
  watching: boolean,
): Promise<ExitCode> {
  const { startPreviewServer } = await import("../serve/previewServer.js");
  const { previewExamples } = await import("../serve/previewExamples.js");
  const preview = await startPreviewServer({
    outDir: options.out,
    port: options.port,
    host: options.host,
    now: options.now,
    apiKeySha256: io.env.API_KEY_SHA256,
    routes,
  }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, options) ?? error;
  });
  const secretProblem = await keysSecretProblem(preview, io.env.API_KEY_SHA256);
  if (secretProblem) {
    io.stderr(
      "spi-static: warning: API_KEY_SHA256 is no list of SHA-256 digests, so the rules answer " +
        `every request with a key 503 (keys-misconfigured): ${secretProblem} Give the digests ` +
        'separated by commas or spaces (printf %s "$KEY" | sha256sum), or unset it to use the build\'s keys.',
    );
  }
  const examples = await previewExamples(preview.origin, options.out, dataDir);
  const key = examples.key?.key ?? "<your key>";
  const auth = `-H "Authorization: ClientIdentifier ${key}"`;
  // One write, so a reader of the pipe (a script, a test) never sees half the banner.
  const banner = [
    `spi-static: previewing ${options.out} at ${preview.origin} through its _worker.js (Ctrl-C stops)`,
  ];
  if (watching) {
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
    // A broken secret refuses every key: that was said above, not the keys files' fault.
    for (const file of secretProblem ? [] : examples.refusedKeyFiles) {
      banner.push(
        `  (${file} holds no key this build accepts: use one of the keys the build was given)`,
      );
    }
  }
  io.stdout(banner.join("\n"));
  await untilAborted(io.stopSignal());
  await preview.close();
  return EXIT.ok;
}

/**
 * Why the preview cannot listen where it was told, and what to do instead: the port and address
 * come from the command line, so this is a usage error (exit 2).
 */
function listenError(error: NodeJS.ErrnoException, options: ServeOptions): UsageError | undefined {
  const where = `port ${options.port} on ${options.host}`;
  switch (error.code) {
    case "EADDRINUSE":
      return new UsageError(
        `${where} is in use (another preview or server?): choose another with --port <n>, or --port 0 for a free one`,
      );
    case "EACCES":
      return new UsageError(
        `${where} needs privileges this user lacks: choose a port above 1023 with --port <n>, or --port 0 for a free one`,
      );
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new UsageError(
        `cannot listen on ${options.host}: no address of this machine; give --host 127.0.0.1 (or 0.0.0.0 for every address)`,
      );
    default:
      return undefined;
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * What is wrong with an API_KEY_SHA256 the preview was given, as the rules themselves see it: a
 * request with a key is answered 503 keys-misconfigured (the text names the entry, never its
 * value). Asked in process over https, so the https rule for keys never answers first.
 */
async function keysSecretProblem(
  preview: PreviewServer,
  secret: string | undefined,
): Promise<string | undefined> {
  if (!secret) return undefined;
  const answer = await preview.ask(
    new Request(`https://localhost/${OPEN_SI_PATH}`, {
      headers: { authorization: "ClientIdentifier spi-static-startup-check" },
    }),
  );
  const body = await answer.text();
  if (answer.status !== 503) return undefined;
  return /<error [^>]*>([^<]*)<\/error>/.exec(body)?.[1] ?? body;
}
