import { execFile } from "node:child_process";
import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { type PreviewServer, startPreviewServer } from "../../src/serve/previewServer.js";
import { runInProcess } from "../cli/runInProcess.js";

/**
 * The cron recipes of the README (Cloudflare) and docs/nginx.md (in place), run as cron runs
 * them: the line's command by /bin/sh, in a project where `npx` finds spi-static (this
 * checkout's) and a stand-in wrangler, against a live site on loopback. What cron mails is
 * what the line prints; a good night must print nothing, a bad one its cause.
 */
const DAY_MS = 86_400_000;
const KEY = "cron-recipe-key-0001";
const CLI = resolve("dist/cli/main.js");

const root = await mkdtemp(join(tmpdir(), "spi-cron-"));
const project = join(root, "srv-spi");
const keysFile = join(root, "keys.txt");
const logFile = join(root, "spi-static.jsonl");
const wranglerLog = join(root, "wrangler.log");
const schedule = join(project, "data/schedules/main.yaml");
const servers: PreviewServer[] = [];
let fresh: PreviewServer;
let stale: PreviewServer;

/** The command of the one crontab line in `file`'s crontab block. */
async function cronCommand(file: string): Promise<string> {
  const text = await readFile(file, "utf8");
  const block = /```crontab\n([\s\S]*?)```/.exec(text)?.[1] ?? "";
  const lines = block.split("\n").filter((line) => line.trim() !== "");
  expect(lines, file).toHaveLength(1);
  const fields = /^\s*(\S+\s+){5}(.+)$/.exec(lines[0] ?? "");
  expect(fields, file).not.toBeNull();
  return fields?.[2] ?? "";
}

interface Night {
  code: number;
  stdout: string;
  stderr: string;
}

/** The recipe on the server: paths and the site's address are this test's. */
function runNight(command: string, site: PreviewServer): Promise<Night> {
  const local = command
    .replaceAll("/srv/spi", project)
    .replaceAll("/etc/spi-static/keys.txt", keysFile)
    .replaceAll("/var/log/spi-static.jsonl", logFile)
    .replaceAll("https://spi.example.org", site.origin);
  return new Promise((done) => {
    execFile(
      "/bin/sh",
      ["-c", local],
      {
        cwd: root,
        // cron's own environment: a short PATH (with node), HOME, no npm settings of the test's.
        env: {
          PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
          HOME: root,
          SHELL: "/bin/sh",
          npm_config_offline: "true",
          npm_config_update_notifier: "false",
        },
      },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function breakSchedule(): Promise<() => Promise<void>> {
  const text = await readFile(schedule, "utf8");
  await writeFile(schedule, text.replace(/start: "?\d\d:\d\d"?/, "start: 25:61"));
  return () => writeFile(schedule, text);
}

beforeAll(async () => {
  expect((await runInProcess(["init", "srv-spi"], root)).exitCode).toBe(0);
  await writeFile(keysFile, `${KEY}\n`);
  await writeFile(join(project, "package.json"), '{ "name": "srv-spi", "private": true }\n');
  const bin = join(project, "node_modules/.bin");
  await mkdir(bin, { recursive: true });
  await writeFile(join(bin, "spi-static"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  // wrangler deploy as it is on a good day: a page of progress on stdout.
  await writeFile(
    join(bin, "wrangler"),
    `#!/bin/sh\necho "$*" >> "${wranglerLog}"\necho "Total Upload: 42 KiB"\necho "Deployed srv-spi"\n`,
  );
  for (const name of ["spi-static", "wrangler"]) await chmod(join(bin, name), 0o755);
  // The live site: out/ as tonight's build leaves it, and one built two nights ago.
  const now = Date.now();
  await buildSite({
    dataDir: join(project, "data"),
    outDir: join(project, "out"),
    now,
    keys: { keysList: KEY },
  });
  const staleOut = join(root, "stale-out");
  await buildSite({
    dataDir: join(project, "data"),
    outDir: staleOut,
    now: now - 2 * DAY_MS,
    keys: { keysList: KEY },
  });
  fresh = await startPreviewServer({ outDir: join(project, "out"), port: 0, host: "127.0.0.1" });
  stale = await startPreviewServer({ outDir: staleOut, port: 0, host: "127.0.0.1" });
  servers.push(fresh, stale);
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await rm(root, { recursive: true, force: true });
});

describe.each([
  ["the README's cron line (Cloudflare)", "README.md", true],
  ["docs/nginx.md's cron line (in place)", "docs/nginx.md", false],
])("%s", (_name, file, deploys) => {
  it("prints nothing on a good night", async () => {
    const command = await cronCommand(file);
    await writeFile(wranglerLog, "");
    const night = await runNight(command, fresh);
    expect(night, night.stderr).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await readFile(wranglerLog, "utf8")).toBe(deploys ? "deploy\n" : "");
  });

  it("fails with the build's cause on stderr, does not deploy, and still checks the live site", async () => {
    const command = await cronCommand(file);
    const restore = await breakSchedule();
    await writeFile(wranglerLog, "");
    try {
      // The live site is fine: the night fails for the build alone.
      const night = await runNight(command, fresh);
      expect(night.code).not.toBe(0);
      expect(night.stdout).toBe("");
      expect(night.stderr).toMatch(
        /^data\/schedules\/main\.yaml:\d+:\d+ .*"25:61" is not a time of day/m,
      );
      expect(night.stderr).not.toContain("verify");
      expect(await readFile(wranglerLog, "utf8")).toBe("");
      // The live site is two nights stale as well: both are said.
      const both = await runNight(command, stale);
      expect(both.code).not.toBe(0);
      expect(both.stderr).toMatch(/"25:61" is not a time of day/);
      expect(both.stderr).toMatch(/^✗ fresh: .*: 2 nights late: /m);
      expect(both.stderr).toMatch(/^spi-static verify: \d+ passed, 1 failed, 0 skipped — /m);
    } finally {
      await restore();
    }
  });

  it("fails on a good build when the live site is stale, saying how many nights", async () => {
    const command = await cronCommand(file);
    await appendFile(logFile, "");
    const before = (await readFile(logFile, "utf8")).split("\n").length;
    const night = await runNight(command, stale);
    expect(night.code).toBe(3);
    expect(night.stdout).toBe("");
    expect(night.stderr).toMatch(
      /^✗ fresh: .*: 2 nights late: .*ends 1 day before the window's far end/m,
    );
    if (deploys) expect((await readFile(logFile, "utf8")).split("\n").length).toBe(before + 1);
  });
});
