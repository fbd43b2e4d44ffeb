import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { BUILD_NOW, DATA_DIR } from "../edge/builtSite.js";
import { runCli } from "./runCli.js";
import { runInProcess } from "./runInProcess.js";

const CLI = resolve("dist/cli/main.js");
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "spi-serve-cli-"));
  const build = await runInProcess(
    ["build", "--data", DATA_DIR, "--out", outDir, "--now", BUILD_NOW, "--quiet"],
    tmpdir(),
  );
  expect(build.exitCode).toBe(0);
});

/**
 * `spi-static serve` run in-process in `cwd` until it has printed its examples; `stop` aborts it
 * as SIGINT would and gives its exit code and everything it printed.
 */
async function serveInProcess(args: string[], cwd: string, env: Record<string, string> = {}) {
  const stopping = new AbortController();
  let stdout = "";
  let bannerPrinted: () => void = () => {};
  const banner = new Promise<void>((done) => {
    bannerPrinted = done;
  });
  const finished = runInProcess(["serve", "--port", "0", "--now", BUILD_NOW, ...args], cwd, env, {
    signal: stopping.signal,
    onStdout: (text) => {
      stdout += text;
      if (stdout.includes("open SI:")) bannerPrinted();
    },
  });
  await Promise.race([
    banner,
    finished.then((result) => Promise.reject(new Error(`serve ended: ${JSON.stringify(result)}`))),
  ]);
  return {
    stdout,
    stop: () => {
      stopping.abort();
      return finished;
    },
  };
}

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
    const { stdout, stop } = await serveInProcess([], project);
    expect(keyedPiExample(stdout).key).toBe("<your key>");
    expect(stdout).toContain("data/keys.dev.txt holds no key this build accepts");
    expect(await stop()).toMatchObject({ exitCode: 0, stderr: "" });
  });

  it("warns at startup when API_KEY_SHA256 holds no valid digest, naming the entry, not its value", async () => {
    const pasted = "demo-aare-radio-0123456789";
    const secret = `${digestOfKey(pasted)}, ${pasted}`;
    const { stdout, stop } = await serveInProcess(["--out", outDir], tmpdir(), {
      API_KEY_SHA256: secret,
    });
    const { stderr, exitCode } = await stop();
    expect(exitCode).toBe(0);
    expect(stderr).toContain(
      "spi-static: warning: API_KEY_SHA256 is no list of SHA-256 digests, so the rules answer every request with a key 503 (keys-misconfigured): " +
        "No API key can be checked: entry 2 of API_KEY_SHA256 is not a SHA-256 digest",
    );
    expect(stderr).not.toContain(pasted);
    // The keys files are not to blame: the secret refuses every key.
    expect(stdout).not.toContain("holds no key this build accepts");
  });

  it("says nothing of an API_KEY_SHA256 the rules can use, and prints the key it accepts", async () => {
    const key = "demo-aare-radio-0123456789";
    const project = await mkdtemp(join(tmpdir(), "spi-serve-secret-"));
    await cp(DATA_DIR, join(project, "data"), { recursive: true });
    const { stdout, stop } = await serveInProcess(["--out", outDir], project, {
      API_KEY_SHA256: `${digestOfKey(key).toUpperCase()}  -\n`,
    });
    expect(keyedPiExample(stdout).key).toBe(key);
    expect(await stop()).toMatchObject({ exitCode: 0, stderr: "" });
  });

  it("listens on a free port with --port 0 and prints the one it chose", async () => {
    const { stdout, stop } = await serveInProcess(["--out", outDir], tmpdir());
    const port = Number(/previewing .* at http:\/\/127\.0\.0\.1:(\d+) /.exec(stdout)?.[1]);
    expect(port).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${port}/${OPEN_SI_PATH}`)).status).toBe(200);
    expect((await stop()).exitCode).toBe(0);
  });

  it("names a busy port and how to choose another, exit 2; dev then exits instead of watching on", async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
    const port = String((taken.address() as AddressInfo).port);
    try {
      const serve = await runInProcess(["serve", "--out", outDir, "--port", port], tmpdir());
      expect(serve).toEqual({
        exitCode: 2,
        stdout: "",
        stderr:
          `spi-static: port ${port} on 127.0.0.1 is in use (another preview or server?): ` +
          "choose another with --port <n>, or --port 0 for a free one\n",
      });
      const dir = await mkdtemp(join(tmpdir(), "spi-dev-busy-"));
      await cp(DATA_DIR, join(dir, "data"), { recursive: true });
      // The real process: a watcher left open would keep it alive and this would time out.
      const dev = await runCli(["dev", "--port", port, "--now", BUILD_NOW], dir);
      expect(dev.code).toBe(2);
      expect(dev.stderr).toContain(`spi-static: port ${port} on 127.0.0.1 is in use`);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  });

  it("rejects a port that is not a number with a usage error", async () => {
    const result = await runInProcess(["serve", "--out", outDir, "--port", "http"], tmpdir());
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("expected a port number");
  });
});

describe("spi-static dev", () => {
  it("names a keys file it cannot read, exit 2, before watching anything", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-dev-keys-"));
    await cp(DATA_DIR, join(dir, "data"), { recursive: true });
    const missing = await runCli(["dev", "--port", "0", "--keys-file", "nope.txt"], dir);
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr: "spi-static: --keys-file nope.txt: no such file\n",
    });
    await writeFile(join(dir, "short.txt"), "# ours\nshort\n");
    const bad = await runCli(["dev", "--port", "0", "--keys-file", "short.txt"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "short.txt:2:1 key: a key needs at least 16 characters\n" +
        "spi-static: 1 error in short.txt; nothing was written\n",
    );
  });

  it("with invalid data and nothing built yet prints the problems and exits 1", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-dev-cli-"));
    await cp(DATA_DIR, join(dir, "data"), { recursive: true });
    const schedule = join(dir, "data/schedules/bern.yaml");
    await writeFile(
      schedule,
      (await readFile(schedule, "utf8")).replace('start: "12:00"', 'start: "12:60"'),
    );
    const result = await runInProcess(
      ["dev", "--data", "data", "--out", "out", "--port", "0", "--now", BUILD_NOW],
      dir,
    );
    expect(result.exitCode).toBe(1);
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
    const result = await runInProcess(
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
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).keys).toEqual({ origin: keysFile, demo: false, count: 1 });
  });

  it("warns when the edge rules would accept the public demo key", async () => {
    const result = await runInProcess(
      ["build", "--data", DATA_DIR, "--out", outDir, "--now", BUILD_NOW],
      tmpdir(),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("public demo key");
  });
});
