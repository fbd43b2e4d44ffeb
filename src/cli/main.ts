#!/usr/bin/env node
import type { CommandIo } from "./commandIo.js";
import { runCommandLine } from "./commandLine.js";
import { reportMemoryAtExit } from "./heapGrowth.js";

// The process boundary: the real environment, streams and signals; everything else is in
// runCommandLine, which the tests run in-process.
reportMemoryAtExit(process.execArgv);
const stop = new AbortController();
const stopOnSignal = () => {
  process.off("SIGINT", stopOnSignal);
  process.off("SIGTERM", stopOnSignal);
  stop.abort();
};

// A reader that closes the pipe early (`spi-static build --help | head -1`) has read what it
// wanted: later lines are dropped and the command ends as it would have, not with a stack trace.
let stdoutReaderGone = false;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  stdoutReaderGone = true;
});

const io: CommandIo = {
  env: process.env,
  stdout: (lines) => stdoutReaderGone || process.stdout.write(`${lines}\n`),
  stderr: (lines) => process.stderr.write(`${lines}\n`),
  terminal: process.stderr.isTTY ? process.stderr : undefined,
  stopSignal() {
    if (!process.listeners("SIGTERM").includes(stopOnSignal)) {
      process.on("SIGINT", stopOnSignal);
      process.on("SIGTERM", stopOnSignal);
    }
    return stop.signal;
  },
};

try {
  process.exitCode = await runCommandLine(process.argv.slice(2), io);
} finally {
  process.off("SIGINT", stopOnSignal);
  process.off("SIGTERM", stopOnSignal);
}
