#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { registerBuildCommand } from "./buildCommand.js";
import { EXIT } from "./exitCodes.js";

const program = new Command("spi-static")
  .description("Pre-renders a broadcaster's RadioDNS SPI 3.1 API (ETSI TS 102 818) as static files.")
  .exitOverride()
  .showHelpAfterError();

registerBuildCommand(program);

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  } else {
    console.error(`spi-static: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT.failure;
  }
}
