import type { CommandIo, CommandResult } from "../../src/cli/commandIo.js";
import { runCommandLine } from "../../src/cli/commandLine.js";

export interface RunControl {
  /** Stops a command that runs until stopped (serve), as SIGINT does. */
  signal?: AbortSignal;
  /** Called with each write to stdout as it happens (serve's banner, before it is stopped). */
  onStdout?: (text: string) => void;
}

/**
 * Runs `spi-static <args>` in this process, through the same command line, parsers, command
 * functions and error boundary as the binary, in `cwd` and with `env` as its whole environment
 * (none of the test's), and returns its exit code and what it printed.
 */
export async function runInProcess(
  args: string[],
  cwd = process.cwd(),
  env: Record<string, string> = {},
  { signal = new AbortController().signal, onStdout }: RunControl = {},
): Promise<CommandResult> {
  let stdout = "";
  let stderr = "";
  const io: CommandIo = {
    env,
    stdout: (lines) => {
      stdout += `${lines}\n`;
      onStdout?.(`${lines}\n`);
    },
    stderr: (lines) => {
      stderr += `${lines}\n`;
    },
    stopSignal: () => signal,
  };
  // Relative paths and the default ./data are the user's folder: the test's files run one at a
  // time in their own process (vitest's forks pool), so changing it for the run is safe.
  const testCwd = process.cwd();
  process.chdir(cwd);
  try {
    const exitCode = await runCommandLine(args, io);
    return { exitCode, stdout, stderr };
  } finally {
    process.chdir(testCwd);
  }
}
