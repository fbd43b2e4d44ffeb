import { execFile, execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, rm, stat, truncate, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_PATH } from "../../src/build/stateFolder.js";
import { readTree } from "../outputFolder.js";
import { CLI, EXAMPLE, NEXT_NIGHT, NOW, SERVICE_DIR } from "./exampleBuild.js";
import { writeLargerDataset } from "./largerDataset.js";

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the compiled CLI, through `sh -c` when a resource limit has to be set first. */
function runCli(args: string[], shellPrefix?: string): Promise<CliRun> {
  const [command, argv] = shellPrefix
    ? ["sh", ["-c", `${shellPrefix}; exec "$0" "$@"`, process.execPath, CLI, ...args]]
    : [process.execPath, [CLI, ...args]];
  return new Promise((done) => {
    execFile(command as string, argv as string[], (error, stdout, stderr) => {
      done({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

/** Last night's output, as the CDN serves it. */
async function publishedSite(outDir: string, dataDir = EXAMPLE): Promise<Map<string, string>> {
  const first = await runCli([
    "build",
    "--data",
    dataDir,
    "--out",
    outDir,
    "--now",
    NOW,
    "--quiet",
  ]);
  expect(first, first.stderr).toMatchObject({ code: 0 });
  return readTree(outDir);
}

function tryCommand(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** The previously published files are all still there, byte for byte, and the state too. */
async function expectIntact(outDir: string, before: Map<string, string>) {
  const after = await readTree(outDir);
  for (const [path, content] of before) expect(after.get(path) === content, path).toBe(true);
}

describe("a build that cannot write", () => {
  it("fails on a read-only folder with exit 3, naming the file and the cause, and keeps the published files", async (context) => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-readonly-"));
    const before = await publishedSite(outDir);
    const folder = join(outDir, SERVICE_DIR);
    // Root ignores permission bits, so as root make the folder immutable instead.
    const asRoot = process.getuid?.() === 0;
    if (asRoot && !tryCommand("chattr", ["+i", folder]))
      context.skip("chattr +i is not available here");
    if (!asRoot) await chmod(folder, 0o555);
    try {
      const run = await runCli(["build", "--data", EXAMPLE, "--out", outDir, "--now", NEXT_NIGHT]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        new RegExp(`cannot write ${folder}/20261202_PI\\.xml: .*\\((EPERM|EACCES)\\).*intact`),
      );
    } finally {
      if (asRoot) tryCommand("chattr", ["-i", folder]);
      else await chmod(folder, 0o755);
    }
    await expectIntact(outDir, before);
    expect((await readdir(folder)).filter((f) => f.startsWith("."))).toEqual([]);
  });

  it("fails at the file-size limit with exit 3 and keeps the published files", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-fsize-"));
    const dataDir = await mkdtemp(join(tmpdir(), "spi-fsize-data-"));
    await writeLargerDataset(dataDir, { services: 5 });
    const before = await publishedSite(outDir, dataDir);
    await writeLargerDataset(dataDir, { services: 5, originator: "Aare Radio Group AG" });

    // A limit of 16 blocks (8 KiB in sh's 512-byte blocks): the lock fits, documents do not.
    const run = await runCli(
      ["build", "--data", dataDir, "--out", outDir, "--now", NOW, "--json"],
      "ulimit -f 16",
    );
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ ok: false, path: expect.stringMatching(/\.xml$/) });
    expect(report.error).toMatch(/^cannot write .*: file too large \(EFBIG\)$/);
    await expectIntact(outDir, before);
  });

  it("fails when the disk is full with exit 3 and keeps the published files", async (context) => {
    if (process.getuid?.() !== 0) context.skip("mounting a small file system needs root");
    const mountPoint = await mkdtemp(join(tmpdir(), "spi-full-"));
    if (!tryCommand("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint])) {
      context.skip("cannot mount a tmpfs here");
    }
    try {
      const outDir = join(mountPoint, "out");
      const dataDir = await mkdtemp(join(tmpdir(), "spi-full-data-"));
      await writeLargerDataset(dataDir, { services: 3 });
      const before = await publishedSite(outDir, dataDir);
      await writeLargerDataset(dataDir, { services: 3, originator: "Aare Radio Group AG" });
      // Fill the disk, then free two pages: room for the lock, none for a document (or for the
      // journal that comes before it).
      const filler = join(mountPoint, "filler");
      await writeFile(filler, "");
      await writeFile(filler, Buffer.alloc(8 * 1024 * 1024), { flag: "a" }).catch(() => undefined);
      await truncate(filler, (await stat(filler)).size - 8192);

      const run = await runCli(["build", "--data", dataDir, "--out", outDir, "--now", NOW]);
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(
        /cannot write .*(\.xml|state\.journal): no space left on device \(ENOSPC\).*intact/,
      );
      await expectIntact(outDir, before);
    } finally {
      tryCommand("umount", [mountPoint]);
    }
  });
});

/** Another build (a live process: this one) is writing `outDir`. */
async function holdLock(outDir: string): Promise<void> {
  await mkdir(join(outDir, "_spi-static"), { recursive: true });
  const running = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    token: "t",
  };
  await writeFile(join(outDir, LOCK_PATH), JSON.stringify(running));
}

describe("two builds on one output folder", () => {
  it("makes the second exit 4 at once, naming the running build and its lock", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-busy-"));
    await holdLock(outDir);

    const run = await runCli(["build", "--data", EXAMPLE, "--out", outDir, "--now", NOW]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`another build (pid ${process.pid} on ${hostname()}`);
    expect(run.stderr).toContain(join(outDir, LOCK_PATH));
    expect((await readTree(outDir)).size).toBe(1);
  });

  it("lets the second wait with --wait until the first has finished", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-wait-"));
    await holdLock(outDir);

    const second = runCli([
      "build",
      "--data",
      EXAMPLE,
      "--out",
      outDir,
      "--now",
      NOW,
      "--wait",
      "120",
      "--json",
    ]);
    setTimeout(() => rm(join(outDir, LOCK_PATH)), 500);
    const run = await second;
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, removed: 0, foreign: [] });
  });
});
