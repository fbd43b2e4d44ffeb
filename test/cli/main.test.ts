import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
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

  it("starts node again with the heap flag for build and validate, says so on the memory channel, and leaves it to V8 when asked", async () => {
    const data = resolve("test/fixtures/minimal");
    const memory = { SPI_STATIC_DEBUG: "memory" };
    const limited = await runCli(["validate", "--data", data], root, memory);
    expect(limited.code).toBe(0);
    expect(limited.stderr).toMatch(
      /^spi-static debug memory: peak RSS \d+ MB; heap growth limited by --heap-growing-percent=50, given to node at start-up, node started again by the bin for it \(src\/cli\/heapGrowth\.ts\)\nspi-static debug memory: node started again with --heap-growing-percent=50 \(V8 reads it at start-up\); the first process waited with a peak RSS of \d+ MB \(src\/cli\/startAgain\.ts\)\n$/,
    );
    // A flag given to node is kept, and no second process is started for it.
    const byNode = await runCli(["validate", "--data", data], root, memory, [
      "--heap-growing-percent=30",
    ]);
    expect(byNode.stderr).toMatch(
      /^spi-static debug memory: peak RSS \d+ MB; heap growth limited by --heap-growing-percent=30, given to node at start-up \(src\/cli\/heapGrowth\.ts\)\n$/,
    );
    const leftToV8 = { ...memory, SPI_STATIC_HEAP_GROWTH: "0" };
    expect((await runCli(["validate", "--data", data], root, leftToV8)).stderr).toMatch(
      /^spi-static debug memory: peak RSS \d+ MB; heap growth left to V8 \(SPI_STATIC_HEAP_GROWTH=0\) \(src\/cli\/heapGrowth\.ts\)\n$/,
    );
    expect((await runCli(["--version"], root, memory)).stderr).toMatch(
      /^spi-static debug memory: peak RSS \d+ MB; heap growth left to V8 \(only build and validate limit it\) \(src\/cli\/heapGrowth\.ts\)\n$/,
    );
    expect((await runCli(["validate", "--data", data], root)).stderr).toBe("");
    const mistyped = await runCli(["validate", "--data", data], root, {
      SPI_STATIC_HEAP_GROWTH: "half",
    });
    expect(mistyped.code).toBe(0);
    expect(mistyped.stderr).toBe(
      "spi-static: SPI_STATIC_HEAP_GROWTH=half is not a percent (0 to 9999); using 50\n",
    );
  });

  it("ends as the node it started again ends: same exit code, same output as run directly", async () => {
    const args = ["validate", "--data", resolve("test/fixtures/broken")];
    const again = await runCli(args, root);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("has no provider.yaml");
    expect(await runCli(args, root, { SPI_STATIC_HEAP_GROWTH: "0" })).toEqual(again);
  });

  it("ends the build it started again when it is killed with SIGKILL (no build goes on unseen)", async () => {
    const child = spawn(
      process.execPath,
      [
        resolve("dist/cli/main.js"),
        "build",
        "--data",
        resolve("data"),
        "--out",
        join(root, "out-killed"),
      ],
      { env: { ...process.env, SPI_STATIC_DEBUG: "all" } },
    );
    const first = child.pid as number;
    // The first debug line comes from the second process: it is under way.
    await new Promise((started) => child.stderr.once("data", started));
    const second = Number((await readFile(`/proc/${first}/task/${first}/children`, "utf8")).trim());
    expect(second).toBeGreaterThan(0);
    child.kill("SIGKILL");
    await new Promise((done) => child.on("exit", done));
    // Gone within seconds: the channel it waits on closes with the first process.
    let alive = true;
    for (let tries = 0; alive && tries < 100; tries++) {
      await new Promise((wait) => setTimeout(wait, 50));
      alive = await running(second);
    }
    expect(alive).toBe(false);
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

/** Whether a process runs (a zombie waiting to be reaped does not). */
async function running(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
  const state = /\) (\S)/.exec(stat)?.[1];
  return state !== undefined && state !== "Z";
}
