#!/usr/bin/env node
import { fileURLToPath } from "node:url";
import { heapGrowth } from "./heapGrowth.js";

/** process.execve (Node 22.15 and later; not in @types/node 20): replaces this process. */
type Execve = (file: string, args: string[], env: NodeJS.ProcessEnv) => never;
const { execve } = process as { execve?: Execve };

// The bin: a command that loads a data folder needs node started with a V8 flag for its heap
// (src/cli/heapGrowth.ts), so this process becomes node started with it: the same pid, streams,
// signals and exit status. Nothing else is loaded before that choice. execve does not return:
// node aborts if it fails, as a shell's exec would.
const args = process.argv.slice(2);
const { startWith } = heapGrowth(process.env, process.execArgv, args, execve !== undefined);
if (startWith && execve) {
  const script = fileURLToPath(import.meta.url);
  execve(
    process.execPath,
    [process.execPath, ...process.execArgv, startWith, script, ...args],
    process.env,
  );
}
await import("./cliProcess.js");
