import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { InvalidArgumentError } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { parseInstant } from "../../src/cli/optionParsers.js";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-now-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("parseInstant (--now)", () => {
  it("takes an ISO instant with a zone, with or without seconds and fractions", () => {
    expect(parseInstant("2026-11-23T04:00:00Z")).toBe(Date.UTC(2026, 10, 23, 4));
    expect(parseInstant("2026-11-23T05:00+01:00")).toBe(Date.UTC(2026, 10, 23, 4));
    expect(parseInstant("2024-02-29T23:59:59.5-00:30")).toBe(Date.UTC(2024, 2, 1, 0, 29, 59, 500));
  });

  it.each([
    ["2026-02-30T04:00:00Z", "2026-02-30 is not a calendar date"],
    ["2025-02-29T04:00:00Z", "2025-02-29 is not a calendar date"],
    ["2026-11-23T24:00:00Z", "not a valid time of day or zone offset"],
    ["2026-11-23T04:60:00Z", "not a valid time of day or zone offset"],
    ["2026-11-23T04:00:00+24:00", "not a valid time of day or zone offset"],
    ["9999-12-31T23:59:59Z", "must lie between the years 1970 and 9998"],
    ["0001-01-01T00:00:00Z", "must lie between the years 1970 and 9998"],
    ["2026-11-23T04:00:00", "expected an ISO 8601 instant with a zone"],
  ])("refuses %s: %s", (value, reason) => {
    expect(() => parseInstant(value)).toThrow(InvalidArgumentError);
    expect(() => parseInstant(value)).toThrow(reason);
  });

  it.each([["build"], ["validate"]])(
    "makes %s exit 2 (usage) on a day that is not in the calendar or beyond year 9998",
    async (command) => {
      for (const now of ["2026-02-30T04:00:00Z", "9999-12-31T23:59:59Z"]) {
        const run = await runInProcess(
          [command, "--data", resolve("test/fixtures/minimal"), "--out", "out", "--now", now],
          root,
        ).catch((error: unknown) => error);
        expect(run).toMatchObject({ exitCode: 2 });
      }
    },
  );
});

describe("--keys-file", () => {
  it.each([
    ["build", ["--data", "test/fixtures/minimal", "--out", "out"]],
    ["serve", ["--out", "out"]],
    ["verify", ["http://127.0.0.1:9"]],
  ])(
    "given an empty path is a usage error for %s, never a fallback to other keys",
    async (command, args) => {
      for (const path of ["", " "]) {
        const run = await runInProcess(
          [
            command,
            ...args.map((a) => (a.startsWith("test/") ? resolve(a) : a)),
            "--keys-file",
            path,
          ],
          root,
          { SPI_API_KEYS: "" },
        );
        expect(run.exitCode, run.stderr).toBe(2);
        expect(run.stderr).toContain("expected the path of a keys file");
      }
    },
  );
});

describe("build's notes", () => {
  it("says on stderr which damaged part it dropped and what it did instead, and rewrites it", async () => {
    const dir = await mkdtemp(join(root, "notes-"));
    const args = ["build", "--data", resolve("test/fixtures/minimal"), "--out", "out"];
    const first = await runInProcess([...args, "--now", "2026-11-23T08:00:00Z"], dir);
    expect(first.exitCode).toBe(0);
    const statePath = join(dir, "out/_spi-static/state.json");
    const state = JSON.parse(await readFile(statePath, "utf8"));
    await writeFile(statePath, JSON.stringify({ ...state, checks: "[damaged" }));
    const next = await runInProcess([...args, "--now", "2026-11-24T08:00:00Z"], dir);
    expect(next.exitCode).toBe(0);
    expect(next.stderr).toContain(
      `spi-static: ${join("out", "_spi-static/state.json")} ("checks") is not of its shape: dropped; every service was laid out and checked again; it is written anew`,
    );
    expect(JSON.parse(await readFile(statePath, "utf8")).checks).toBeTypeOf("object");
  });
});
