import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import { commandLine } from "../../src/cli/commandLine.js";
import {
  parseApiKey,
  parseBaseUrl,
  parseFolderPath,
  parseJobs,
  parseKeysFilePath,
  parseListenHost,
  parsePort,
  parseSeconds,
  parseTimeout,
} from "../../src/cli/optionParsers.js";
import { runInProcess } from "./runInProcess.js";

// parseInstant (--now) is tested with the build command, in buildCommand.test.ts.
describe("the option parsers", () => {
  it("take what each option means and refuse the rest as usage errors", () => {
    expect(parseSeconds("600")).toBe(600);
    expect(parseSeconds("0.5")).toBe(0.5);
    expect(parseJobs("1")).toBe(1);
    expect(parseJobs("16")).toBe(16);
    expect(parsePort("0")).toBe(0);
    expect(parsePort("8080")).toBe(8080);
    expect(parseTimeout("15")).toBe(15);
    expect(parseBaseUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080");
    expect(parseKeysFilePath("/etc/keys.txt")).toBe("/etc/keys.txt");
    expect(parseFolderPath("out")).toBe("out");
    expect(parseApiKey("key-one-000000001")).toBe("key-one-000000001");
    for (const host of ["127.0.0.1", "0.0.0.0", "::", "::1", "[::1]", "localhost", "spi.local"]) {
      expect(parseListenHost(host)).toBe(host);
    }
    const refused: [(value: string) => unknown, string, RegExp][] = [
      [parseSeconds, "-1", /number of seconds/],
      [parseSeconds, "ten", /number of seconds/],
      // Node's timers fire at once beyond 2^31 ms: a huge wait would mean none.
      [parseSeconds, "3000000", /from 0 to 86400/],
      // 0 threads would render nothing; a typo must not start thousands of threads.
      [parseJobs, "0", /number of threads from 1 to 256/],
      [parseJobs, "2.5", /number of threads/],
      [parseJobs, "1000", /number of threads/],
      [parsePort, "65536", /port number/],
      [parsePort, "80.5", /port number/],
      [parseTimeout, "0", /positive number of seconds/],
      [parseTimeout, "1e9", /positive number of seconds/],
      [parseBaseUrl, "spi.example.org", /http\(s\) URL/],
      [parseKeysFilePath, " ", /path of a keys file/],
      [parseFolderPath, "", /path of a folder/],
      [parseFolderPath, "out\nx", /no NUL or line break/],
      [parseApiKey, "", /expected an API key/],
      [parseApiKey, " key-one-000000001", /no spaces at its ends/],
      [parseListenHost, "", /address to listen on/],
      [parseListenHost, "http://127.0.0.1", /address to listen on/],
      [parseListenHost, "spi_static.local", /address to listen on/],
    ];
    for (const [parse, value, reason] of refused) {
      expect(() => parse(value), value).toThrow(InvalidArgumentError);
      expect(() => parse(value), value).toThrow(reason);
    }
  });

  it("check every option that takes a value, of every command, and every argument", () => {
    const io = {
      env: {},
      stdout: () => {},
      stderr: () => {},
      stopSignal: () => new AbortController().signal,
    };
    const program = commandLine(io, async () => {});
    const unchecked: string[] = [];
    for (const command of program.commands) {
      for (const option of command.options) {
        const takesValue = option.required || option.optional;
        if (takesValue && option.parseArg === undefined) {
          unchecked.push(`${command.name()} ${option.long}`);
        }
      }
      for (const argument of command.registeredArguments) {
        if (argument.parseArg === undefined)
          unchecked.push(`${command.name()} <${argument.name()}>`);
      }
    }
    expect(program.commands.length).toBeGreaterThanOrEqual(8);
    expect(unchecked).toEqual([]);
  });

  it.each([
    [["build", "--out", ""], "expected the path of a folder"],
    [["build", "--data", " "], "expected the path of a folder"],
    [["build", "--wait", "1e7"], "from 0 to 86400"],
    [["build", "--jobs", "0"], "number of threads from 1 to 256"],
    [["validate", "--data", ""], "expected the path of a folder"],
    [["schema", "--out", ""], "expected the path of a folder"],
    [["init", ""], "expected the path of a folder"],
    [["serve", "--host", "127.0.0.1:8080"], "expected an address to listen on"],
    [["serve", "--out", ""], "expected the path of a folder"],
    [["dev", "--data", ""], "expected the path of a folder"],
    [["verify", "http://127.0.0.1:9", "--key", ""], "expected an API key"],
    [["dns", "--data", ""], "expected the path of a folder"],
    [["nginx", "--digests-file", ""], "expected the path of a digests file"],
    [["nginx", "--listen", "80; include x"], "give a port or address:port"],
    [["nginx", "--server-name", "a;b"], "give host names"],
  ])("refuse %j as a usage error before anything runs", async (args, reason) => {
    const result = await runInProcess(args);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(reason);
  });
});

describe("options that make sense only together", () => {
  it("refuse serve --keys-file without --watch: nothing is built to take the keys", async () => {
    const result = await runInProcess(["serve", "--keys-file", "keys.txt"]);
    expect(result).toEqual({
      exitCode: 2,
      stdout: "",
      stderr:
        "spi-static: --keys-file needs --watch: serve previews the folder as built; give the keys to build\n",
    });
  });

  it("refuse verify --key with --keys-file, and an SPI_VERIFY_KEY with spaces at its ends", async () => {
    const both = await runInProcess([
      "verify",
      "http://127.0.0.1:9",
      "--key",
      "key-one-000000001",
      "--keys-file",
      "keys.txt",
    ]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toBe("spi-static: --key and --keys-file both name a key: give one\n");
    const padded = await runInProcess(["verify", "http://127.0.0.1:9"], process.cwd(), {
      SPI_VERIFY_KEY: "key-one-000000001\n",
    });
    expect(padded.exitCode).toBe(2);
    expect(padded.stderr).toBe(
      "spi-static: SPI_VERIFY_KEY: an API key has no spaces at its ends and no control characters\n",
    );
  });
});
