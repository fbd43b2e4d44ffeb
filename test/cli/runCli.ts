import { execFile } from "node:child_process";
import { resolve } from "node:path";

const CLI = resolve("dist/cli/main.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the compiled CLI (test/globalSetup.ts builds dist/) in `cwd`, with `env` over the test's
 * environment and `nodeOptions` for node; never throws on exit codes.
 */
export function runCli(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  nodeOptions: string[] = [],
): Promise<CliResult> {
  return new Promise((done, fail) => {
    const options = { cwd, env: { ...process.env, ...env } };
    execFile(process.execPath, [...nodeOptions, CLI, ...args], options, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") fail(error);
      else done({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}
