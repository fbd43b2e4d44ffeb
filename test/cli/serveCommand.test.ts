import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";
import { runCli } from "./runCli.js";

const CLI = resolve("dist/cli/main.js");
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-serve-cli-"));
  const build = await runCli(
    ["build", "--data", DATA_DIR, "--out", outDir, "--now", BUILD_NOW, "--quiet"],
    tmpdir(),
  );
  expect(build.code).toBe(0);
});

describe("spi-static serve", () => {
  it("prints its URLs and the demo key, serves through the rules, and stops cleanly on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [CLI, "serve", "--out", outDir, "--port", "0", "--now", BUILD_NOW],
      {
        cwd: resolve("."),
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    await new Promise<void>((done, fail) => {
      child.stdout.on("data", () => stdout.includes("PI:") && done());
      child.on("exit", () => fail(new Error(`serve exited early: ${stdout}`)));
    });
    const siUrl = /open SI: {2}curl (\S+)/.exec(stdout)?.[1] as string;
    const piLine = /PI: +curl -H "Authorization: ClientIdentifier (\S+)" (\S+)/.exec(stdout);
    expect(siUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/radiodns\/spi\/3\.1\/SI\.xml$/);
    expect(piLine?.[1]).toBe("demo-aare-radio-0123456789");
    expect((await fetch(siUrl)).status).toBe(200);
    const piUrl = piLine?.[2] as string;
    expect((await fetch(piUrl)).status).toBe(401);
    const keyed = await fetch(piUrl, {
      headers: { authorization: `ClientIdentifier ${piLine?.[1]}` },
    });
    expect(keyed.status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });

  it("rejects a port that is not a number with a usage error", async () => {
    const result = await runCli(["serve", "--out", outDir, "--port", "http"], tmpdir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a port number");
  });
});

describe("spi-static build --keys-file", () => {
  it("takes the keys from the file and says where the digests came from", async () => {
    const keysFile = join(await mkdtemp(join(tmpdir(), "spi-keys-")), "keys.txt");
    await writeFile(keysFile, "cli-key-00000000001\n");
    const result = await runCli(
      [
        "build",
        "--data",
        DATA_DIR,
        "--out",
        outDir,
        "--now",
        BUILD_NOW,
        "--json",
        "--keys-file",
        keysFile,
      ],
      tmpdir(),
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).keys).toEqual({ origin: keysFile, demo: false, count: 1 });
  });

  it("warns when the edge rules would accept the public demo key", async () => {
    const result = await runCli(
      ["build", "--data", DATA_DIR, "--out", outDir, "--now", BUILD_NOW],
      tmpdir(),
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("public demo key");
  });
});
