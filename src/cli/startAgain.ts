import { spawn } from "node:child_process";
import { debug } from "../debug/debugLog.js";

/** Names the process that started this one again; read (and removed) by `startedAgain`. */
const STARTED_BY = "SPI_STATIC_STARTED_BY";

/** Signals a user or supervisor sends the first process; passed on to the one doing the work. */
const PASSED_ON: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Runs this bin once more in a new node started with `nodeFlag` (a V8 flag, which node reads
 * only at start-up), with the same arguments, streams and environment, and ends this process
 * as that one ends: same exit code, or killed by the same signal. Signals sent to this process
 * are passed on. Costs ~0.1 s and ~6 MB of private memory for this waiting process.
 */
export function startAgain(nodeFlag: string, script: string, args: readonly string[]): void {
  const child = spawn(process.execPath, [...process.execArgv, nodeFlag, script, ...args], {
    // The channel is the new process's lifeline: it ends when this process ends (startedAgain).
    stdio: ["inherit", "inherit", "inherit", "ipc"],
    env: { ...process.env, [STARTED_BY]: String(process.pid) },
  });
  const passOn = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of PASSED_ON) process.on(signal, passOn);
  child.on("error", (error) => {
    process.stderr.write(`spi-static: cannot start node again (${error.message})\n`);
    process.exitCode = 1;
  });
  child.on("exit", (code, signal) => {
    for (const name of PASSED_ON) process.off(name, passOn);
    debug("memory", () => {
      const peak = Math.round(process.resourceUsage().maxRSS / 1024);
      return `node started again with ${nodeFlag} (V8 reads it at start-up); the first process waited with a peak RSS of ${peak} MB (src/cli/startAgain.ts)`;
    });
    if (signal) process.kill(process.pid, signal);
    else process.exitCode = code ?? 1;
  });
}

/**
 * In a process `startAgain` started: ends it at once, as a SIGKILL would, when the first
 * process is gone without passing on a signal (it was SIGKILLed), so no build goes on unseen
 * behind the process its caller killed. Returns whether this process was started again.
 */
export function startedAgain(env: NodeJS.ProcessEnv): boolean {
  const by = env[STARTED_BY];
  delete env[STARTED_BY];
  if (by === undefined || Number(by) !== process.ppid || !process.channel) return false;
  process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
  // The channel alone must not keep this process running once its work is done.
  process.channel.unref();
  return true;
}
