import { readFileSync } from "node:fs";
import { Command, CommanderError, Option } from "commander";
import { EXIT } from "../exit/exitCodes.js";
import { printableLines } from "../exit/printableText.js";
import type { BuildOptions } from "./buildCommand.js";
import type { CommandIo } from "./commandIo.js";
import type { DnsOptions } from "./dnsCommand.js";
import type { ImportCommandOptions } from "./importCommand.js";
import type { InitOptions } from "./initCommand.js";
import type { NginxOptions } from "./nginxCommand.js";
import {
  parseApiKey,
  parseBaseUrl,
  parseDigestsFilePath,
  parseFolderPath,
  parseInstant,
  parseJobs,
  parseKeysFilePath,
  parseListenAddress,
  parseListenHost,
  parseNights,
  parsePort,
  parseRecordFilePath,
  parseSeconds,
  parseServerName,
  parseServiceTimeZone,
  parseSources,
  parseTimeout,
  parseTimeZone,
} from "./optionParsers.js";
import { type CommandFunction, runCommand } from "./runCommand.js";
import type { SchemaOptions } from "./schemaCommand.js";
import type { ServeOptions } from "./serveCommand.js";
import type { UploadListOptions } from "./uploadListCommand.js";
import type { ValidateOptions } from "./validateCommand.js";
import type { VerifyCommandOptions } from "./verifyCommand.js";

// Each command's module is imported when it runs: `--help` and an up-to-date build never load
// the YAML parsers, the schemas or the XSD validator (most of a short run's time).
const commands = {
  build: async () => (await import("./buildCommand.js")).buildCommand,
  validate: async () => (await import("./validateCommand.js")).validateCommand,
  schema: async () => (await import("./schemaCommand.js")).schemaCommand,
  init: async () => (await import("./initCommand.js")).initCommand,
  serve: async () => (await import("./serveCommand.js")).serveCommand,
  verify: async () => (await import("./verifyCommand.js")).verifyCommand,
  dns: async () => (await import("./dnsCommand.js")).dnsCommand,
  import: async () => (await import("./importCommand.js")).importCommand,
  nginx: async () => (await import("./nginxCommand.js")).nginxCommand,
  uploadList: async () => (await import("./uploadListCommand.js")).uploadListCommand,
};

const DATA_OPTION = "folder with provider.yaml, services/ and schedules/ (default: ./data)";
const DEV_KEYS =
  "$SPI_API_KEYS, else the data folder's keys.dev.txt (the development key `init` made) or keys.demo.txt";

/**
 * Runs `spi-static <argv>`: the only place that knows the command line. It maps arguments to a
 * command function through commander and returns the exit code; everything the run prints goes
 * through `io`, so tests run it in-process exactly as the installed binary runs it. Whatever
 * reaches the terminal has its control characters escaped here (src/exit/printableText.ts).
 */
export async function runCommandLine(argv: readonly string[], given: CommandIo): Promise<number> {
  const io: CommandIo = {
    env: given.env,
    terminal: given.terminal,
    stdout: (lines) => given.stdout(printableLines(lines)),
    stderr: (lines) => given.stderr(printableLines(lines)),
    stopSignal: () => given.stopSignal(),
  };
  let exitCode: number = EXIT.ok;
  let commandName: string | undefined;
  const program = commandLine(io, async (load, options) => {
    exitCode = await runCommand(await load(), options, io);
  }).hook("preSubcommand", (_program, command) => {
    commandName = command.name();
  });
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (error.exitCode === 0) return EXIT.ok;
    // The help, asked for without a command: commander printed it already.
    if (error.code === "commander.help") return EXIT.usage;
    // One line: commander puts its "(Did you mean …?)" on a line of its own.
    usageError(
      error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " "),
      commandName,
      argv,
      io,
    );
    return EXIT.usage;
  }
  return exitCode;
}

/**
 * What commander found wrong with the command line: one line and where to read more (the
 * whole help would bury it); with `--json` also one line of JSON on stdout, as every failure.
 */
function usageError(
  message: string,
  commandName: string | undefined,
  argv: readonly string[],
  io: CommandIo,
) {
  const help = `spi-static${commandName ? ` ${commandName}` : ""} --help`;
  const options = argv.slice(0, argv.includes("--") ? argv.indexOf("--") : undefined);
  if (options.includes("--json")) io.stdout(JSON.stringify({ ok: false, error: message, help }));
  io.stderr(`spi-static: ${message}\nsee \`${help}\``);
}

/** Runs a command function (loaded on demand) with the options commander parsed. */
export type Dispatch = <Options extends object>(
  load: () => Promise<CommandFunction<Options>>,
  options: Options,
) => Promise<void>;

/** The program with every command, its options and their parsers, dispatching to `dispatch`. */
export function commandLine(io: CommandIo, dispatch: Dispatch): Command {
  const program = new Command("spi-static")
    // Before any subcommand is added: each copies these settings when it is made.
    .configureOutput({
      writeOut: (text) => io.stdout(text.replace(/\n$/, "")),
      writeErr: (text) => io.stderr(text.replace(/\n$/, "")),
      // Errors are said by runCommandLine, in one line (or as JSON with --json).
      outputError: () => {},
    })
    .description(
      "Pre-renders a broadcaster's RadioDNS SPI 3.1 API (ETSI TS 102 818) as static files.",
    )
    .version(packageVersion(), "-v, --version", "print the version of spi-static")
    .exitOverride()
    .addHelpText(
      "after",
      `
Examples:
  $ spi-static init my-radio                           start a project: data/ and schema/
  $ spi-static validate                                check ./data; every problem with file:line:col
  $ spi-static build                                   build ./data into ./out
  $ spi-static build --now 2026-11-23T04:00:00Z --json reproducible, summary as JSON
  $ spi-static verify https://spi.example.org --key "$KEY"  check a deployment like a client
  $ spi-static dns                                     the DNS records radios need to find the site
  $ spi-static import old-site/ --time-zone Europe/Zurich  a data folder from an existing SPI feed

Exit codes: 0 ok, 1 invalid input (nothing written), 2 usage error, 3 other failure
(e.g. the output folder cannot be written, or a verify check failed), 4 another build is
writing the same output folder.`,
    );

  program
    .command("build")
    .description("render every SI and PI document from the data folder into the output folder")
    .option("--data <dir>", DATA_OPTION, parseFolderPath)
    .option("--out <dir>", "output folder, hosted as the site root", parseFolderPath, "out")
    .option(
      "--now <instant>",
      "the build's clock (ISO instant); makes a build reproducible",
      parseInstant,
    )
    .option("--quiet", "print nothing on success")
    .option("--json", "print the summary (or what went wrong) as one line of JSON")
    .option(
      "--change-host",
      "publish under a changed radiodnsHost (or a host no service uses any more), deleting the PI files under the old one (clients that know the old URLs get 404)",
    )
    .option(
      "--keep-going",
      "publish the services without errors and list the broken ones (exit code 1) instead of writing nothing",
    )
    .option(
      "--keys-file <path>",
      `API keys for the edge rules, one per line (default: ${DEV_KEYS})`,
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
    .option(
      "--jobs <count>",
      "threads that parse data files at once; 1: the main thread only (default: every core; documents are rendered on the main thread)",
      parseJobs,
    )
    .addOption(
      new Option(
        "--asset-limit <plan>",
        "warn when out/ nears or passes the Cloudflare Workers plan's static asset limit (free: 20,000 files, paid: 100,000; off: the documents are served from a bucket or another host)",
      )
        .choices(["free", "paid", "off"])
        .default("free"),
    )
    .addHelpText(
      "after",
      `
The development key in data/keys.dev.txt (or the example's public demo key in keys.demo.txt)
is for serve and verify on this machine: the build warns whenever it uses one. Deploy with
your own keys (--keys-file, SPI_API_KEYS) or with --keys-at-edge and the API_KEY_SHA256 secret.`,
    )
    .action((options: BuildOptions) => dispatch(commands.build, options));

  program
    .command("validate")
    .description(
      "check the data folder without writing anything; every error and warning with its file:line:column",
    )
    .option("--data <dir>", DATA_OPTION, parseFolderPath)
    .option(
      "--now <instant>",
      "the clock whose build window is checked (ISO instant)",
      parseInstant,
    )
    .option("--json", "print the report as one line of JSON")
    .action((options: ValidateOptions) => dispatch(commands.validate, options));

  program
    .command("schema")
    .description(
      "write the JSON Schemas of provider.yaml, services/*.yaml, schedules/*.yaml and episodes/*/*.yaml, for editors",
    )
    .option(
      "--out <dir>",
      "folder to write provider/service/schedule/episodes.schema.json into",
      parseFolderPath,
      "schema",
    )
    .action((options: SchemaOptions) => dispatch(commands.schema, options));

  program
    .command("init")
    .description(
      "start a new project: data/ with a provider, one service and a one-week grid, and schema/ for editors",
    )
    .argument("[dir]", "folder to create the project in", parseFolderPath, ".")
    .action((dir: string) => dispatch(commands.init, { dir } satisfies InitOptions));

  serveOptions(
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
digests built into the worker, as the deployment's secret does. The curl examples it prints
use the first key of data/keys.dev.txt (the development key \`init\` made) or keys.demo.txt
that the served build accepts.`,
    )
    .action((options: ServeOptions) => dispatch(commands.serve, options));
  serveOptions(
    program
      .command("dev")
      .description(
        "serve --watch: rebuild on every save and show the programme grid at the preview's root",
      ),
  ).action((options: ServeOptions) => dispatch(commands.serve, { ...options, watch: true }));

  program
    .command("verify")
    .description(
      "check a deployed site (or the local preview) like a client would; exit 3 if any check fails",
    )
    .argument(
      "<baseUrl>",
      "the site root, e.g. https://spi.example.org or http://127.0.0.1:8080",
      parseBaseUrl,
    )
    .option("--key <key>", "a valid API key (default: $SPI_VERIFY_KEY)", parseApiKey)
    .option(
      "--keys-file <path>",
      "take the key from this keys file (its first key), e.g. data/keys.dev.txt",
      parseKeysFilePath,
    )
    .option(
      "--without-key",
      "check without a key: the checks that need one are skipped, as expected (otherwise a skip fails)",
    )
    .option(
      "--open-pi",
      "the site serves PI without a key (discovery.pi: open): expect 200, not 401",
    )
    .option("--now <instant>", "the clock the site should agree with (ISO instant)", parseInstant)
    .option(
      "--timeout <seconds>",
      "the whole run, every request included (one request gets at most 15 s of it)",
      parseTimeout,
      300,
    )
    .option(
      "--stale-after <nights>",
      "nights late that fail the freshness check; fewer (one or more) warn",
      parseNights,
      2,
    )
    .option("--quiet", "print nothing when every check passes; else the failed ones, on stderr")
    .option("--json", "print the report as one line of JSON")
    .addHelpText(
      "after",
      `
Checks: open SI (no stream URLs), keyed SI, 403 for an invalid key, a PI per service for today,
401 without a key (200 with --open-pi), PI by the bearer path of every DAB/FM bearer the SI
lists (the same document as the id/ path), 404 for an unknown service and for dates outside the window, 400 for a
malformed date, every spelling of the keyed SI's path without a key, revalidation (If-None-Match
gets 304 with the key, never without it), freshness (every service's PI at the window's far end,
today + 7, and the age of the newest document: a site built N nights late), and the schema validity of every document fetched. Without a key the checks that need one are skipped, which fails
unless --without-key says it is expected. Exit codes: 0 all passed, 2 usage error, 3 a check
failed or the site cannot be reached.`,
    )
    .action((baseUrl: string, options: Omit<VerifyCommandOptions, "baseUrl">) =>
      dispatch(commands.verify, { baseUrl, ...options }),
    );

  program
    .command("dns")
    .description(
      "print the DNS records radios need to find the site: SRV records for radiodnsHost (and each service's own FQDN) and the RadioDNS lookup names to register",
    )
    .option("--data <dir>", DATA_OPTION, parseFolderPath)
    .option("--json", "print the records as one line of JSON")
    .action((options: DnsOptions) => dispatch(commands.dns, options));

  program
    .command("upload-list")
    .description(
      "list what a night's upload of out/ to an object store (an R2 bucket) puts and deletes, in order: documents.txt, then si.txt, then delete.txt, then uploaded.json, the record to store once all succeeded",
    )
    .option("--out <dir>", "the built output folder", parseFolderPath, "out")
    .option(
      "--since <file>",
      "the record (uploaded.json) of the last complete upload; without it, every document is put",
      parseRecordFilePath,
    )
    .option(
      "--to <dir>",
      "where the lists and the new record are written",
      parseFolderPath,
      "upload",
    )
    .option("--json", "print the counts as one line of JSON")
    .action((options: UploadListOptions) => dispatch(commands.uploadList, options));

  program
    .command("import")
    .description(
      "read an existing SPI feed (SI and PI files, or a live SPI API) and write a data folder from it",
    )
    .argument(
      "<source...>",
      "folders or files of SI/PI documents (e.g. a copy of the site), or the API's root URL",
      parseSources,
    )
    .requiredOption(
      "--time-zone <zone>",
      "IANA zone of the schedules, e.g. Europe/Zurich (SPI documents hold UTC instants)",
      parseTimeZone,
    )
    .option(
      "--service-time-zone <id=zone>",
      "a service whose schedule is in another zone, e.g. news=Europe/London (repeatable)",
      parseServiceTimeZone,
    )
    .option("--data <dir>", "the data folder to write", parseFolderPath, "data")
    .option("--key <key>", "API key for a live API (default: $SPI_IMPORT_KEY)", parseApiKey)
    .option(
      "--keys-file <path>",
      "take the key from this keys file (its first key)",
      parseKeysFilePath,
    )
    .option("--now <instant>", "the clock: a live API's ±7-day window (ISO instant)", parseInstant)
    .option(
      "--timeout <seconds>",
      "for the whole import: every request to a live API, and the logos",
      parseTimeout,
      15,
    )
    .option("--force", "replace files the data folder already has")
    .option(
      "--download-logos",
      "fetch the feed's logos into data/logos/ as logo sources (docs/logos.md)",
    )
    .option("--json", "print the result as one line of JSON")
    .addHelpText(
      "after",
      `
Writes provider.yaml, services/<id>.yaml, schedules/<id>.yaml and episodes/<id>/<week>.yaml:
shows grouped by memberOf (or by name), a weekly grid where programmes repeat weekly, dated
entries for the other days, episodes for airings with their own texts or CRID. What
the data cannot say is listed with where it came from. The written folder is then checked as
validate checks it. Exit codes: 0 imported and valid (as validate of the folder says), 1
imported but the data needs edits before it builds, 2 usage error (files exist without
--force), 3 the feed cannot be read or fetched, a document is not well-formed, too large or
too slow, a link is in the way in the data folder, or there is no SI document.`,
    )
    .action((sources: string[], options: Omit<ImportCommandOptions, "sources">) =>
      dispatch(commands.import, { sources, ...options }),
    );

  program
    .command("nginx")
    .description(
      "write an nginx server block and the njs module it loads: the same edge rules, for self-hosting or an origin behind any CDN",
    )
    .option("--out <dir>", "the built output folder nginx serves", parseFolderPath, "out")
    .option("--dir <folder>", "where to write the files, outside --out", parseFolderPath, "nginx")
    .option("--listen <address:port>", "nginx's listen value", parseListenAddress, "127.0.0.1:8080")
    .option("--server-name <name>", "nginx's server_name", parseServerName, "_")
    .option(
      "--keys-file <path>",
      `API keys instead of the build's (also: $SPI_API_KEYS)`,
      parseKeysFilePath,
    )
    .option(
      "--digests-file <path>",
      "SHA-256 digests of the keys, as API_KEY_SHA256 holds them",
      parseDigestsFilePath,
    )
    .option(
      "--now <instant>",
      "serve the date window as at this ISO instant, not the clock",
      parseInstant,
    )
    .addHelpText(
      "after",
      `
Run it again when keys or services change; nightly builds need neither this nor a reload.`,
    )
    .action((options: NginxOptions) => dispatch(commands.nginx, options));

  return program;
}

/** The options `serve` and `dev` share. */
function serveOptions(command: Command): Command {
  return command
    .option("--out <dir>", "the built output folder", parseFolderPath, "out")
    .option("--port <n>", "port to listen on (0 picks a free one)", parsePort, 8080)
    .option(
      "--host <address>",
      "address to listen on; keys are refused over http except on loopback",
      parseListenHost,
      "127.0.0.1",
    )
    .option(
      "--now <instant>",
      "serve the date window as at this ISO instant instead of the clock",
      parseInstant,
    )
    .option("--data <dir>", `with --watch: ${DATA_OPTION}`, parseFolderPath)
    .option(
      "--keys-file <path>",
      `with --watch: API keys for the builds, as for build (default: ${DEV_KEYS})`,
      parseKeysFilePath,
    );
}

function packageVersion(): string {
  const packageJson = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(packageJson) as { version: string }).version;
}
