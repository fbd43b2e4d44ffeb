import { execFile } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CliResult } from "../../cli/runCli.js";

/**
 * Data files the loader must refuse, by their true reason: links out of the data folder, special
 * files, unreadable files and folders, files too large, text that is not UTF-8. Each case runs
 * through `validate` and `build`, which must print the same problems and exit 1, and neither may
 * quote what a refused file holds.
 */
const CLI = resolve("dist/cli/main.js");
const NOW = "2026-11-23T08:00:00Z";
const SECRET = "secret-key-that-must-not-be-printed";

const root = await mkdtemp(join(tmpdir(), "spi-static-data-folder-"));
// The permission cases run as `nobody`, who must reach the projects (but not the refused files).
await chmod(root, 0o755);
afterAll(() => rm(root, { recursive: true, force: true }));

const asRoot = process.getuid?.() === 0;

/** The CLI in `cwd`, as an unprivileged user when asked: root reads any file whatever its mode. */
function run(args: string[], cwd: string, unprivileged = false): Promise<CliResult> {
  const command = [process.execPath, CLI, ...args];
  if (unprivileged && asRoot) {
    command.unshift("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
  }
  const [file = "", ...rest] = command;
  return new Promise((done, fail) => {
    execFile(
      file,
      rest,
      { cwd, env: { ...process.env, SPI_API_KEYS: SECRET }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") fail(error);
        else done({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

interface Case {
  name: string;
  /** Breaks the minimal data folder at `data`. */
  setUp(data: string): Promise<unknown>;
  expected: string[];
  unprivileged?: boolean;
}

const latin1 = (text: string) => Buffer.from(text, "latin1");

const cases: Case[] = [
  {
    name: "a link to /proc/self/environ (the environment, keys included)",
    setUp: (data) => replaceWithLink(join(data, "provider.yaml"), "/proc/self/environ"),
    expected: [
      "data/provider.yaml:1:1: is a link to a file outside the data folder; links are followed only within it",
    ],
  },
  {
    name: "a link to /etc/passwd",
    setUp: (data) => replaceWithLink(join(data, "services/one.yaml"), "/etc/passwd"),
    expected: [
      "data/services/one.yaml:1:1: is a link to a file outside the data folder; links are followed only within it",
    ],
  },
  {
    name: "a folder of services that is a link out of the data folder",
    setUp: async (data) => {
      const outside = join(data, "..", "elsewhere");
      await cp(join(data, "services"), outside, { recursive: true });
      await replaceWithLink(join(data, "services"), outside);
    },
    expected: [
      "data/services:1:1: is a link to a folder outside the data folder; links are followed only within it",
    ],
  },
  {
    name: "a FIFO as a service file (reading it would wait forever)",
    setUp: async (data) => {
      await rm(join(data, "services/one.yaml"));
      await execFileAsync("mkfifo", [join(data, "services/one.yaml")]);
    },
    expected: ["data/services/one.yaml:1:1: is a FIFO (named pipe), not a regular file"],
  },
  {
    name: "a schedule that is a folder",
    setUp: async (data) => {
      await rm(join(data, "schedules/one.yaml"));
      await mkdir(join(data, "schedules/one.yaml"));
    },
    expected: ["data/schedules/one.yaml:1:1: is a folder, not a file"],
  },
  {
    name: "a schedule that cannot be read",
    setUp: (data) => chmod(join(data, "schedules/one.yaml"), 0o000),
    expected: ["data/schedules/one.yaml:1:1: cannot be read: permission denied (EACCES)"],
    unprivileged: true,
  },
  {
    name: "a services folder that cannot be read",
    setUp: (data) => chmod(join(data, "services"), 0o000),
    expected: ["data/services:1:1: cannot be read: permission denied (EACCES)"],
    unprivileged: true,
  },
  {
    name: "a provider file over the size limit",
    setUp: async (data) => {
      const text = await readFile(join(data, "provider.yaml"), "utf8");
      await writeFile(join(data, "provider.yaml"), `${text}# ${"x".repeat(3 * 1024 * 1024)}\n`);
    },
    expected: ["data/provider.yaml:1:1: is 3.0 MB; a data file may hold at most 2.0 MB"],
  },
  {
    name: "a Latin-1 service file",
    setUp: async (data) => {
      const text = await readFile(join(data, "services/one.yaml"), "utf8");
      await writeFile(join(data, "services/one.yaml"), latin1(text.replace("One", "Café")));
    },
    expected: [
      'data/services/one.yaml:2:19: is not UTF-8: byte 0xE9 here ("é" in Latin-1: the file is probably Latin-1 or Windows-1252); save it as UTF-8',
    ],
  },
  {
    name: "a UTF-16 schedule with a byte order mark",
    setUp: async (data) => {
      const text = await readFile(join(data, "schedules/one.yaml"), "utf8");
      await writeFile(join(data, "schedules/one.yaml"), Buffer.from(`\ufeff${text}`, "utf16le"));
    },
    expected: [
      "data/schedules/one.yaml:1:1: is not UTF-8: it is UTF-16 (little-endian, with a byte order mark); save it as UTF-8",
    ],
  },
];

describe.concurrent("data files that are refused, by validate and build alike", () => {
  it.each(cases)("$name", async ({ name, setUp, expected, unprivileged }) => {
    const project = join(root, name.replace(/\W+/g, "-"));
    await cp("test/fixtures/minimal", join(project, "data"), { recursive: true });
    await chmod(project, 0o777);
    await setUp(join(project, "data"));

    const validated = await run(
      ["validate", "--data", "data", "--now", NOW],
      project,
      unprivileged,
    );
    expect(validated.stdout.split("\n").slice(0, -2)).toEqual(expected);
    expect(validated.code).toBe(1);

    const built = await run(["build", "--data", "data", "--now", NOW], project, unprivileged);
    expect(built.stderr.split("\n").slice(0, -2)).toEqual(expected);
    expect(built.stderr.split("\n").at(-2)).toMatch(
      /^spi-static: 1 error\S* in data; nothing was written$/,
    );
    expect(built.code).toBe(1);

    for (const output of [validated, built]) {
      const printed = output.stdout + output.stderr;
      expect(printed).not.toContain(SECRET);
      expect(printed).not.toContain("root:");
      expect(printed.length).toBeLessThan(2000);
    }
  });

  it("quotes a 1.9 MB invalid id as a short excerpt, in validate and build alike", async () => {
    const project = join(root, "huge-id");
    await cp("test/fixtures/minimal", join(project, "data"), { recursive: true });
    const service = await readFile(join(project, "data/services/one.yaml"), "utf8");
    const id = `a-very-long-id-${"x".repeat(1_900_000)}`;
    await writeFile(
      join(project, "data/services/one.yaml"),
      service.replace("id: one", `id: ${id}`),
    );
    const expected = `data/services/one.yaml:1:5 id: "${id.slice(0, 36)}…${"x".repeat(23)}" is not a service id (1 to 16 lower-case letters or digits)`;
    const validated = await run(["validate", "--data", "data", "--now", NOW], project);
    expect(validated.stdout.split("\n")[0]).toBe(expected);
    const built = await run(["build", "--data", "data", "--now", NOW], project);
    expect(built.stderr.split("\n")[0]).toBe(expected);
    for (const output of [validated, built]) {
      expect(output.code).toBe(1);
      expect((output.stdout + output.stderr).length).toBeLessThan(1000);
    }
  });

  it("follows a link to another file inside the data folder", async () => {
    const project = join(root, "inside-link");
    await cp("test/fixtures/minimal", join(project, "data"), { recursive: true });
    await mkdir(join(project, "data/shared"));
    await cp(join(project, "data/schedules/one.yaml"), join(project, "data/shared/one.yaml"));
    await replaceWithLink(join(project, "data/schedules/one.yaml"), "../shared/one.yaml");
    const validated = await run(["validate", "--data", "data", "--now", NOW], project);
    expect(validated.stdout).toBe(
      "spi-static: data is valid, 0 warnings, 1 service ready to build\n",
    );
    expect(validated.code).toBe(0);
  });

  it("follows a folder that is a link inside the data folder, and refuses one leading out of it", async () => {
    const project = join(root, "folder-links");
    await cp("test/fixtures/minimal", join(project, "data"), { recursive: true });
    await cp(join(project, "data/schedules"), join(project, "data/kept"), { recursive: true });
    await replaceWithLink(join(project, "data/schedules"), "kept");
    const validated = await run(["validate", "--data", "data", "--now", NOW], project);
    expect(validated.stdout).toBe(
      "spi-static: data is valid, 0 warnings, 1 service ready to build\n",
    );
    // Out of it: schedules/<id>.yaml is read by its name, not from the folder's listing.
    await cp(join(project, "data/kept"), join(project, "elsewhere"), { recursive: true });
    await replaceWithLink(join(project, "data/schedules"), "../elsewhere");
    const refused = await run(["validate", "--data", "data", "--now", NOW], project);
    expect(refused.stdout.split("\n").slice(0, 2)).toEqual([
      "data/schedules/one.yaml:1:1: is a link to a file outside the data folder; links are followed only within it",
      "data/schedules:1:1: is a link to a folder outside the data folder; links are followed only within it",
    ]);
    expect(refused.code).toBe(1);
  });

  it("refuses a key file of the data folder that is a FIFO instead of waiting on it", async () => {
    const project = join(root, "dev-key-fifo");
    await cp("test/fixtures/minimal", join(project, "data"), { recursive: true });
    await rm(join(project, "data/keys.dev.txt"));
    await execFileAsync("mkfifo", [join(project, "data/keys.dev.txt")]);
    const built = await execFileWithout(
      "SPI_API_KEYS",
      ["build", "--data", "data", "--now", NOW],
      project,
    );
    expect(built.stderr.split("\n")[0]).toBe(
      "data/keys.dev.txt:1:1: is a FIFO (named pipe), not a regular file",
    );
    // A key problem, wherever the keys come from: exit 2, as for a missing key.
    expect(built.code).toBe(2);
  });
});

async function replaceWithLink(path: string, target: string): Promise<void> {
  await rm(path, { recursive: true });
  await symlink(target, path);
}

function execFileAsync(file: string, args: string[]): Promise<void> {
  return new Promise((done, fail) =>
    execFile(file, args, (error) => (error ? fail(error) : done())),
  );
}

function execFileWithout(variable: string, args: string[], cwd: string): Promise<CliResult> {
  const env = { ...process.env };
  delete env[variable];
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== "number") fail(error);
        else done({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}
