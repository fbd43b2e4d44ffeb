#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { heapGrowth } from "./heapGrowth.js";
import { startAgain } from "./startAgain.js";

// The bin: a command that loads a data folder needs node started with a V8 flag for its heap
// (src/cli/heapGrowth.ts), so node is started once more with it; every other run goes on here.
// Nothing else is imported before that choice, so the first process stays small.
const args = process.argv.slice(2);
const { startWith } = heapGrowth(process.env, process.execArgv, args);
if (startWith) startAgain(startWith, fileURLToPath(import.meta.url), args);
else await import("./cliProcess.js");
