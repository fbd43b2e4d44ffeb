import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DATA_DIR } from "../edge/builtSite.js";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-command-line-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("a usage error", () => {
  it("is one line and where the command's help is, never the whole help", async () => {
    const cases: [string[], string, string][] = [
      [["build", "--jobs", "x"], "option '--jobs <count>' argument 'x' is invalid.", "build"],
      [["verify"], "missing required argument 'baseUrl'", "verify"],
      [["dns", "--colour"], "unknown option '--colour'", "dns"],
      [["bild"], "unknown command 'bild' (Did you mean build?)", ""],
    ];
    for (const [args, message, command] of cases) {
      const result = await runInProcess(args, root);
      expect(result.exitCode, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      const lines = result.stderr.split("\n");
      expect(lines).toHaveLength(3);
      expect(lines[0]).toContain(`spi-static: ${message}`);
      expect(lines[1]).toBe(`see \`spi-static${command ? ` ${command}` : ""} --help\``);
    }
  });

  it("with --json is one line of JSON on stdout, also when found while parsing the options", async () => {
    const result = await runInProcess(["build", "--jobs", "0", "--json"], root);
    expect(result.exitCode).toBe(2);
    // Said on stderr as well: a `--json >> log` run under cron still mails the cause.
    expect(result.stderr).toMatch(/^spi-static: option '--jobs <count>' argument '0' is invalid/);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      error: expect.stringContaining("option '--jobs <count>' argument '0' is invalid."),
      help: "spi-static build --help",
    });
    // After `--`, "--json" is an argument, not the option.
    const argument = await runInProcess(
      ["import", "--time-zone", "Nope/Zone", "--", "--json"],
      root,
    );
    expect(argument.exitCode).toBe(2);
    expect(argument.stdout).toBe("");
  });

  it("with --json: a keys file that is missing is JSON too, naming the file, exit 2", async () => {
    const result = await runInProcess(
      [
        "build",
        "--data",
        DATA_DIR,
        "--out",
        join(root, "out"),
        "--keys-file",
        "nope.txt",
        "--json",
      ],
      root,
    );
    expect(result).toEqual({
      exitCode: 2,
      stdout: `${JSON.stringify({ ok: false, error: "--keys-file nope.txt: no such file" })}\n`,
      stderr: "spi-static: --keys-file nope.txt: no such file\n",
    });
  });
});

describe("what reaches the terminal", () => {
  it("has the data's control characters escaped: no screen clearing, retitling or forged lines", async () => {
    const data = join(root, "hostile");
    await cp(DATA_DIR, data, { recursive: true });
    const service = join(data, "services/bern.yaml");
    const text = await readFile(service, "utf8");
    await writeFile(
      service,
      text
        .replace("id: bern", 'id: "be\\e[2Jrn\\nspi-static: data is valid"')
        .replace("description:", '"x\\e]0;owned\\a\\u009b": 1\ndescription:'),
    );
    for (const json of [false, true]) {
      const result = await runInProcess(
        ["validate", "--data", data, ...(json ? ["--json"] : [])],
        root,
      );
      expect(result.exitCode).toBe(1);
      const printed = result.stdout + result.stderr;
      expect(printed).not.toMatch(/(?!\n)\p{Cc}/u);
      if (json) expect(() => JSON.parse(result.stdout)).not.toThrow();
      else {
        expect(result.stdout).toContain('"be\\u001b[2Jrn\\nspi-static: data is valid"');
        expect(result.stdout).toContain("x\\u001b]0;owned\\u0007\\u009b: is not a known field");
        expect(result.stdout).not.toMatch(/^spi-static: data is valid/m);
      }
    }
    const build = await runInProcess(
      ["build", "--data", data, "--out", join(root, "hostile-out"), "--keep-going"],
      root,
    );
    expect(build.exitCode).toBe(1);
    expect(build.stdout + build.stderr).not.toMatch(/(?!\n)\p{Cc}/u);
    expect(build.stderr).toContain(
      "spi-static: left out 1 service with errors: be\\u001b[2Jrn\\nspi-static: data is valid;",
    );
    expect(build.stderr).not.toMatch(/^spi-static: data is valid/m);
  });

  it("says a __proto__ or constructor key is not a known field, wherever it is", async () => {
    const data = join(root, "proto");
    await cp(DATA_DIR, data, { recursive: true });
    const service = join(data, "services/bern.yaml");
    await writeFile(
      service,
      (await readFile(service, "utf8")).replace(
        "description:",
        "__proto__: 1\nconstructor: 2\ndescription:",
      ),
    );
    const schedule = join(data, "schedules/bern.yaml");
    await writeFile(
      schedule,
      (await readFile(schedule, "utf8")).replace(/^shows:\n/m, "shows:\n  __proto__: {}\n"),
    );
    const result = await runInProcess(["validate", "--data", data], root);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/services\/bern\.yaml:\d+:1 __proto__: is not a known field\n/);
    expect(result.stdout).toMatch(/services\/bern\.yaml:\d+:1 constructor: is not a known field\n/);
    expect(result.stdout).toMatch(
      /schedules\/bern\.yaml:\d+:3 shows\.__proto__: is not a known field\n/,
    );
    expect(result.stdout).not.toContain("[object Object]");
    expect(result.stdout).not.toContain("native code");
  });
});
