import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
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

/** `spi-static serve` in `cwd` until it has printed its examples; `stop` sends SIGTERM. */
async function startServe(args: string[], cwd = resolve(".")) {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--port", "0", "--now", BUILD_NOW, ...args],
    {
      cwd,
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  await new Promise<void>((done, fail) => {
    child.stdout.on("data", () => stdout.includes("PI:") && done());
    child.on("exit", () => fail(new Error(`serve exited early: ${stdout}${stderr}`)));
  });
  return {
    stdout,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The keyed PI example serve printed, with its key. */
function keyedPiExample(stdout: string): { key: string; url: string } {
  const line = /PI: +curl -H "Authorization: ClientIdentifier ([^"]+)" (\S+)/.exec(stdout);
  return { key: line?.[1] as string, url: line?.[2] as string };
}

describe("spi-static serve", () => {
  it("prints its URLs and the demo key, serves through the rules, and stops cleanly on SIGTERM", async () => {
    const { stdout, stop } = await startServe(["--out", outDir]);
    const siUrl = /open SI: {2}curl (\S+)/.exec(stdout)?.[1] as string;
    const { key, url: piUrl } = keyedPiExample(stdout);
    expect(siUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/radiodns\/spi\/3\.1\/SI\.xml$/);
    expect(key).toBe("demo-aare-radio-0123456789");
    expect((await fetch(siUrl)).status).toBe(200);
    expect((await fetch(piUrl)).status).toBe(401);
    const keyed = await fetch(piUrl, { headers: { authorization: `ClientIdentifier ${key}` } });
    expect(keyed.status).toBe(200);
    expect(stdout).toContain(
      `  verify:   npx spi-static verify ${new URL(siUrl).origin} --keys-file data/keys.demo.txt`,
    );
    expect(await stop()).toBe(0);
  });

  it("runs the worker in a CommonJS project, where a .js file is not a module", async () => {
    const project = await mkdtemp(join(tmpdir(), "spi-serve-commonjs-"));
    await writeFile(join(project, "package.json"), '{ "name": "radio", "type": "commonjs" }\n');
    await cp(outDir, join(project, "out"), { recursive: true });
    const { stdout, stop } = await startServe([], project);
    const { url } = keyedPiExample(stdout);
    expect((await fetch(url)).status).toBe(401);
    expect(await stop()).toBe(0);
  });

  it("prints examples that work when it listens on every address", async () => {
    const { stdout, stop } = await startServe(["--out", outDir, "--host", "0.0.0.0"]);
    const { key, url } = keyedPiExample(stdout);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    const keyed = await fetch(url, { headers: { authorization: `ClientIdentifier ${key}` } });
    expect(keyed.status).toBe(200);
    expect(await stop()).toBe(0);
  });

  it("prints no key it cannot vouch for: one the build did not take gets a placeholder", async () => {
    const project = await mkdtemp(join(tmpdir(), "spi-serve-other-key-"));
    await cp(outDir, join(project, "out"), { recursive: true });
    await mkdir(join(project, "data"));
    await writeFile(join(project, "data/keys.dev.txt"), "not-the-built-key-000\n");
    const { stdout, stop } = await startServe([], project);
    expect(keyedPiExample(stdout).key).toBe("<your key>");
    expect(stdout).toContain("data/keys.dev.txt holds no key this build accepts");
    expect(await stop()).toBe(0);
  });

  it("rejects a port that is not a number with a usage error", async () => {
    const result = await runCli(["serve", "--out", outDir, "--port", "http"], tmpdir());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("expected a port number");
  });
});

describe("spi-static dev", () => {
  it("with invalid data and nothing built yet prints the problems and exits 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-dev-cli-"));
    await cp(DATA_DIR, join(dir, "data"), { recursive: true });
    const schedule = join(dir, "data/schedules/bern.yaml");
    await writeFile(
      schedule,
      (await readFile(schedule, "utf8")).replace('start: "12:00"', 'start: "12:60"'),
    );
    const result = await runCli(
      ["dev", "--data", "data", "--out", "out", "--port", "0", "--now", BUILD_NOW],
      dir,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^data\/schedules\/bern\.yaml:\d+:\d+ grid\[0\]\.slots\[2\]\.start: "12:60"/m,
    );
    expect(result.stderr).toContain("nothing to serve");
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
