#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { Command, CommanderError } from "commander";
import { registerBuildCommand } from "./buildCommand.js";
import { registerDnsCommand } from "./dnsCommand.js";
import { EXIT } from "./exitCodes.js";
import { registerInitCommand } from "./initCommand.js";
import { registerSchemaCommand } from "./schemaCommand.js";
import { registerServeCommand } from "./serveCommand.js";
import { UsageError } from "./usageError.js";
import { registerValidateCommand } from "./validateCommand.js";
import { registerVerifyCommand } from "./verifyCommand.js";

const program = new Command("spi-static")
  .description(
    "Pre-renders a broadcaster's RadioDNS SPI 3.1 API (ETSI TS 102 818) as static files.",
  )
  .version(packageVersion(), "-v, --version", "print the version of spi-static")
  .exitOverride()
  .showHelpAfterError()
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

Exit codes: 0 ok, 1 invalid input (nothing written), 2 usage error, 3 other failure
(e.g. the output folder cannot be written, or a verify check failed), 4 another build is
writing the same output folder.`,
  );

// Each command imports what it runs when it runs: `--help` and an up-to-date build never load
// the YAML parsers, the schemas or the XSD validator (most of a short run's time).
registerBuildCommand(program);
registerValidateCommand(program);
registerSchemaCommand(program);
registerInitCommand(program);
registerServeCommand(program);
registerVerifyCommand(program);
registerDnsCommand(program);

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else if (error instanceof UsageError) {
    console.error(`spi-static: ${error.message}`);
    process.exitCode = EXIT.usage;
  } else {
    console.error(`spi-static: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT.failure;
  }
}

function packageVersion(): string {
  const packageJson = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(packageJson) as { version: string }).version;
}
