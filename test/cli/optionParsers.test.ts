import { InvalidArgumentError } from "commander";
import { describe, expect, it } from "vitest";
import {
  parseBaseUrl,
  parseKeysFilePath,
  parsePort,
  parseSeconds,
  parseTimeout,
} from "../../src/cli/optionParsers.js";

// parseInstant (--now) is tested with the build command, in buildCommand.test.ts.
describe("the option parsers", () => {
  it("take what each option means and refuse the rest as usage errors", () => {
    expect(parseSeconds("600")).toBe(600);
    expect(parseSeconds("0.5")).toBe(0.5);
    expect(parsePort("0")).toBe(0);
    expect(parsePort("8080")).toBe(8080);
    expect(parseTimeout("15")).toBe(15);
    expect(parseBaseUrl("http://127.0.0.1:8080")).toBe("http://127.0.0.1:8080");
    expect(parseKeysFilePath("/etc/keys.txt")).toBe("/etc/keys.txt");
    const refused: [(value: string) => unknown, string, RegExp][] = [
      [parseSeconds, "-1", /number of seconds/],
      [parseSeconds, "ten", /number of seconds/],
      [parsePort, "65536", /port number/],
      [parsePort, "80.5", /port number/],
      [parseTimeout, "0", /positive number of seconds/],
      [parseBaseUrl, "spi.example.org", /http\(s\) URL/],
      [parseKeysFilePath, " ", /path of a keys file/],
    ];
    for (const [parse, value, reason] of refused) {
      expect(() => parse(value), value).toThrow(InvalidArgumentError);
      expect(() => parse(value), value).toThrow(reason);
    }
  });
});
