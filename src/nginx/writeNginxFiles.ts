import { mkdir, readFile, realpath } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { resolveApiKeys } from "../edge/apiKeys.js";
import { WORKER_PATH } from "../edge/edgeFiles.js";
import { createEdgeWorker, type EdgeEnv, type EdgeSite } from "../edge/edgeRules.js";
import { UsageError } from "../exit/spiStaticError.js";
import { InputError } from "../load/text/inputProblem.js";
import { writeFileAtomically } from "../publish/writeFileAtomically.js";
import { renderNjsModule, siteTablesOf } from "./njsModule.js";
import {
  checkServerConfig,
  NGINX_FILES,
  renderApiConfig,
  renderServerConfig,
  SEND_FILE,
} from "./serverConfig.js";
import { zoneOffsets } from "./zoneCalendar.js";

export interface NginxFilesOptions {
  /** The built output folder the API serves. */
  outDir: string;
  /** Where the configuration and module go: outside `outDir`. */
  dir: string;
  listen: string;
  serverName: string;
  /** Keys to check against instead of the build's: `--keys-file`, else `SPI_API_KEYS`. */
  keysFile?: string | undefined;
  keysList?: string | undefined;
  /** A file of SHA-256 digests the deployment provides, read as the worker reads API_KEY_SHA256. */
  digestsFile?: string | undefined;
  /** "Now" for the date window instead of the clock (SPI_FIXED_NOW): previews of another day, tests. */
  fixedNow?: string | undefined;
}

export interface NginxFiles {
  /** Absolute paths of the files written. */
  files: string[];
  /** Where the digests keys are checked against came from. */
  keysOrigin: string;
  keyCount: number;
}

/** The site settings out/_worker.js was written with (templates/_worker.js.tmpl's last line). */
export function edgeSiteOfWorker(workerSource: string, file: string): EdgeSite {
  const call = "export default createEdgeWorker(";
  const start = workerSource.lastIndexOf(call);
  const end = workerSource.lastIndexOf(");");
  let site: unknown;
  try {
    site = start === -1 ? undefined : JSON.parse(workerSource.slice(start + call.length, end));
  } catch {
    site = undefined;
  }
  const shape = site as Partial<EdgeSite> | undefined;
  if (typeof shape?.openSiPath !== "string" || !Array.isArray(shape.keyDigests)) {
    throw new UsageError(`${file} is not a worker spi-static build wrote: build the site again`);
  }
  return site as EdgeSite;
}

/**
 * The deployment's digests, checked by the rules themselves: a keyed request they would answer
 * 503 (an entry that is no digest) stops the command here instead of every client later.
 */
async function checkDigests(site: EdgeSite, text: string, file: string): Promise<number> {
  const env: EdgeEnv = {
    ASSETS: { fetch: async () => new Response(null, { status: 404 }) },
    API_KEY_SHA256: text,
  };
  const probe = new Request(`https://probe.invalid/${site.openSiPath}`, {
    headers: { authorization: "ClientIdentifier probe" },
  });
  const answer = await createEdgeWorker(site).fetch(probe, env);
  const entries = [...text.matchAll(/[^\s,;]+/g)];
  if (entries.length === 0) {
    throw new UsageError(`${file} holds no SHA-256 digest: every key would be refused`);
  }
  if (answer.status === 503) {
    const number = Number(/entry (\d+)/.exec(await answer.text())?.[1] ?? 1);
    const entry = entries[number - 1];
    const before = text.slice(0, entry?.index ?? 0).split("\n");
    throw new InputError(
      [
        {
          file,
          line: before.length,
          column: (before.at(-1)?.length ?? 0) + 1,
          field: `entry ${number}`,
          severity: "error",
          message: "not a SHA-256 digest (64 hex digits; keys themselves never go here)",
        },
      ],
      file,
    );
  }
  return entries.filter((entry) => /^[0-9a-f]{64}$/i.test(entry[0])).length;
}

/** The served folder or one inside it: refused, nothing there is to be served. */
function checkOutside(outDir: string, dir: string): void {
  const path = relative(outDir, dir);
  const outside = path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path);
  if (!outside) {
    throw new UsageError(
      `--dir ${dir} is inside the served folder ${outDir}: give a folder outside it`,
    );
  }
}

/**
 * `spi-static nginx`: the server block, the block's directives for a server of one's own, and
 * the njs module, for the site built in `outDir`. Keys only as SHA-256 digests: the build's
 * (embedded in out/_worker.js), or those of `--keys-file`/`SPI_API_KEYS`, or a digests file.
 */
export async function writeNginxFiles(options: NginxFilesOptions): Promise<NginxFiles> {
  const outDir = await realpath(options.outDir).catch(() => {
    throw new UsageError(`no output folder ${options.outDir}: run spi-static build first`);
  });
  const workerFile = join(outDir, WORKER_PATH);
  const workerSource = await readFile(workerFile, "utf8").catch(() => {
    throw new UsageError(`no ${workerFile}: run spi-static build first`);
  });
  let site = edgeSiteOfWorker(workerSource, workerFile);
  const asked = {
    dir: resolve(options.dir),
    listen: options.listen,
    serverName: options.serverName,
  };
  checkOutside(outDir, asked.dir);
  checkServerConfig(asked);
  await mkdir(options.dir, { recursive: true });
  const config = { ...asked, dir: await realpath(options.dir) };
  checkOutside(outDir, config.dir);
  checkServerConfig(config);

  const env: Omit<EdgeEnv, "ASSETS"> = {};
  let keysOrigin = `the build's keys (${workerFile})`;
  let keyCount = site.keyDigests.length;
  if (options.digestsFile !== undefined) {
    const text = await readFile(options.digestsFile, "utf8");
    keyCount = await checkDigests(site, text, options.digestsFile);
    env.API_KEY_SHA256 = text;
    keysOrigin = options.digestsFile;
  } else if (options.keysFile !== undefined || options.keysList?.trim()) {
    const keys = await resolveApiKeys(outDir, {
      keysFile: options.keysFile,
      keysList: options.keysList,
    });
    site = { ...site, keyDigests: keys.digests };
    keysOrigin = keys.origin;
    keyCount = keys.digests.length;
  }
  if (keyCount === 0) {
    throw new UsageError(
      "no key digests: the site was built with --keys-at-edge; give --keys-file, SPI_API_KEYS or --digests-file",
    );
  }
  if (options.fixedNow !== undefined) env.SPI_FIXED_NOW = options.fixedNow;

  const texts: [string, string][] = [
    [
      NGINX_FILES.module,
      await renderNjsModule(site, {
        root: outDir,
        env,
        sendFile: SEND_FILE,
      }),
    ],
    [NGINX_FILES.tables, JSON.stringify(siteTablesOf(site, zoneOffsets(site.timeZone)))],
    [NGINX_FILES.api, renderApiConfig(config)],
    [NGINX_FILES.server, renderServerConfig(config)],
  ];
  const files = texts.map(([name, text]) => {
    const path = join(config.dir, name);
    writeFileAtomically(path, text);
    return path;
  });
  return { files, keysOrigin, keyCount };
}
