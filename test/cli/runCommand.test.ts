import { describe, expect, it } from "vitest";
import { BuildLockBusyError } from "../../src/build/buildLock.js";
import { HostChangeError } from "../../src/build/hostChange.js";
import type { CommandIo } from "../../src/cli/commandIo.js";
import { runCommand } from "../../src/cli/runCommand.js";
import { MissingKeysError } from "../../src/edge/apiKeys.js";
import { UsageError } from "../../src/exit/spiStaticError.js";
import { InputError, type InputProblem } from "../../src/load/text/inputProblem.js";
import { PublishError } from "../../src/publish/publishError.js";
import { VerifyUsageError } from "../../src/verify/verifySite.js";

function capture() {
  const printed = { stdout: "", stderr: "" };
  const io: CommandIo = {
    env: {},
    stdout: (lines) => {
      printed.stdout += `${lines}\n`;
    },
    stderr: (lines) => {
      printed.stderr += `${lines}\n`;
    },
    stopSignal: () => new AbortController().signal,
  };
  return { io, printed };
}

/** Runs a command that throws `error`, as the CLI's boundary runs every command. */
async function failWith(error: unknown, json = false) {
  const { io, printed } = capture();
  const exitCode = await runCommand(
    async () => {
      throw error;
    },
    { json },
    io,
  );
  return { exitCode, ...printed };
}

const problem: InputProblem = {
  file: "data/services/pop.yaml",
  line: 3,
  column: 5,
  field: "id",
  severity: "error",
  message: "is not a service id",
};
const lock = { pid: 42, host: "cron1", startedAt: "2026-11-23T03:00:00Z", token: "t" };

describe("runCommand: the one place a thrown error becomes output and an exit code", () => {
  it.each([
    ["invalid input", new InputError([problem], "data"), 1],
    ["a usage error", new UsageError("--data x: no such folder"), 2],
    ["missing keys", new MissingKeysError("no API keys"), 2],
    ["a changed radiodnsHost", new HostChangeError("out holds another host"), 2],
    ["an unsafe verify", new VerifyUsageError("a key over plain http"), 2],
    ["an output folder that cannot be written", new PublishError("out/x", "write", "EACCES"), 3],
    ["an unexpected error", new TypeError("x is undefined"), 3],
    ["a busy output folder", new BuildLockBusyError("out/_spi-static/build.lock", lock), 4],
  ])("exits as documented for %s", async (_, error, exitCode) => {
    const result = await failWith(error);
    expect(result.exitCode).toBe(exitCode);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^spi-static: |^data\/services\/pop\.yaml:3:5 id: /);
  });

  it("lists every problem with its place, then what that means", async () => {
    const warning = { ...problem, severity: "warning" as const, message: "is never scheduled" };
    const result = await failWith(new InputError([problem, warning], "data"));
    expect(result.stderr).toBe(
      "data/services/pop.yaml:3:5 id: is not a service id\n" +
        "data/services/pop.yaml:3:5 id: warning: is never scheduled\n" +
        "spi-static: 1 error in data; nothing was written\n",
    );
  });

  it("says the published files are intact when the output folder cannot be written", async () => {
    const result = await failWith(new PublishError("out/x", "write", new Error("disk full")));
    expect(result.stderr).toBe(
      "spi-static: cannot write out/x: disk full; the files already published are intact\n",
    );
  });

  it("reports a failure as one line of JSON on stdout with --json, and as text on stderr", async () => {
    const input = await failWith(new InputError([problem], "data"), true);
    expect(input.exitCode).toBe(1);
    expect(input.stderr).toBe((await failWith(new InputError([problem], "data"), false)).stderr);
    expect(JSON.parse(input.stdout)).toEqual({ ok: false, problems: [problem] });
    const busy = await failWith(new BuildLockBusyError("out/_spi-static/build.lock", lock), true);
    expect(busy.exitCode).toBe(4);
    expect(JSON.parse(busy.stdout)).toMatchObject({
      ok: false,
      path: "out/_spi-static/build.lock",
      error: expect.stringContaining("another build (pid 42 on cron1"),
    });
    const usage = await failWith(new UsageError("--data x: no such folder"), true);
    expect(JSON.parse(usage.stdout)).toEqual({ ok: false, error: "--data x: no such folder" });
    const unexpected = await failWith(new TypeError("x is undefined"), true);
    expect(unexpected).toMatchObject({ exitCode: 3, stderr: "spi-static: x is undefined\n" });
    expect(JSON.parse(unexpected.stdout)).toEqual({ ok: false, error: "x is undefined" });
  });

  it("passes a command's own exit code through", async () => {
    const { io } = capture();
    expect(await runCommand(async () => 1, {}, io)).toBe(1);
  });
});
