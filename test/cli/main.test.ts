import { spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./runCli.js";

// The commands are tested in-process (runInProcess.ts); these check what only the real process
// shows: its exit status and which stream each line reaches.
const root = await mkdtemp(join(tmpdir(), "spi-static-main-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("the spi-static binary", () => {
  it("exits 0 with the help on stdout", async () => {
    const result = await runCli(["--help"], root);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: spi-static \[options\] \[command\]/);
    expect(result.stderr).toBe("");
  });

  it("ends quietly when the reader of its output closes the pipe early (`--help | head -1`)", async () => {
    const child = spawn(process.execPath, [resolve("dist/cli/main.js"), "build", "--help"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("says its memory at each phase, its peak and the heap's growth setting on the memory channel, and nothing without it", async () => {
    const data = resolve("test/fixtures/minimal");
    const memory = { SPI_STATIC_DEBUG: "memory" };
    const own = await runCli(["validate", "--data", data], root, memory);
    expect(own.code).toBe(0);
    expect(own.stderr).toMatch(
      /^spi-static debug memory: parse starts: RSS \d+ MB \(peak \d+\); main heap \d+ MB used of \d+ committed \(young \d+\); external \d+ MB \(array buffers \d+\)\nspi-static debug memory: parse done: RSS [^\n]*; no parse workers\nspi-static debug memory: peak RSS \d+ MB; heap growth: V8's own rule \(src\/cli\/heapGrowth\.ts\)\n$/,
    );
    const byNode = await runCli(["validate", "--data", data], root, memory, [
      "--heap-growing-percent=30",
    ]);
    expect(byNode.code).toBe(0);
    expect(byNode.stderr).toMatch(
      /spi-static debug memory: parse done: [^\n]*\nspi-static debug memory: peak RSS \d+ MB; heap growth: limited by --heap-growing-percent=30, given to node at start-up \(src\/cli\/heapGrowth\.ts\)\n$/,
    );
    expect((await runCli(["validate", "--data", data], root)).stderr).toBe("");
  });

  it("leaves no process behind a build killed with SIGKILL (nothing publishes after its caller saw it die)", async () => {
    const out = join(root, "out-killed");
    const child = spawn(
      process.execPath,
      [resolve("dist/cli/main.js"), "build", "--data", resolve("data"), "--out", out],
      { env: { ...process.env, SPI_STATIC_DEBUG: "all" } },
    );
    // The first debug line: the build is under way. It runs in the process its caller started
    // (no second process, which would go on publishing after this one was killed).
    await new Promise((started) => child.stderr.once("data", started));
    child.kill("SIGKILL");
    await new Promise((done) => child.on("exit", done));
    expect(await processesNaming(out)).toEqual([]);
  });

  it("exits 2 on an unknown option: the error and where the help is on stderr, not the help", async () => {
    const result = await runCli(["build", "--colour"], root);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "spi-static: unknown option '--colour'\nsee `spi-static build --help`\n",
    );
  });

  it("exits 2 on a bad keys file, the problems on stderr, and 2 for a usage error", async () => {
    const data = resolve("test/fixtures/minimal");
    const keys = join(root, "keys.txt");
    await writeFile(keys, "short\n");
    const invalid = await runCli(["build", "--data", data, "--keys-file", keys], root);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe(
      `${keys}:1:1 key: a key needs at least 16 characters\nspi-static: 1 error in ${keys}; nothing was written\n`,
    );
    const usage = await runCli(["build", "--data", join(root, "nope")], root);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe(`spi-static: --data ${join(root, "nope")}: no such folder\n`);
  });

  it("ends a build at once on SIGTERM, as any process ends (only serve stops gracefully)", async () => {
    const child = spawn(
      process.execPath,
      [resolve("dist/cli/main.js"), "build", "--data", resolve("data"), "--out", join(root, "out")],
      { env: { ...process.env, SPI_STATIC_DEBUG: "all" } },
    );
    // The first debug line: the build is under way, past any handler the CLI could install.
    child.stderr.once("data", () => child.kill("SIGTERM"));
    const ended = await new Promise<{ code: number | null; signal: string | null }>((done) =>
      child.on("exit", (code, signal) => done({ code, signal })),
    );
    expect(ended).toEqual({ code: null, signal: "SIGTERM" });
  });
});

/** The running processes (not zombies) whose command line names `text`. */
async function processesNaming(text: string): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    const state = /\) (\S)/.exec(await readFile(`/proc/${entry}/stat`, "utf8").catch(() => ""));
    if (commandLine.includes(text) && state?.[1] !== "Z") found.push(Number(entry));
  }
  return found;
}
