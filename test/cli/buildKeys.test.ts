import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-build-keys-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const NOW = "2026-11-23T08:00:00Z";

/** A data folder with no keys file, built with no SPI_API_KEYS: a CI job whose secret is unset. */
async function keylessProject(name: string): Promise<string> {
  const dir = join(root, name);
  await cp("test/fixtures/minimal", join(dir, "data"), { recursive: true });
  await rm(join(dir, "data/keys.dev.txt"), { force: true });
  return dir;
}

const withoutKeys = { SPI_API_KEYS: "" };

describe("spi-static build without any key", () => {
  it("refuses to publish a worker that would accept no key, and writes nothing", async () => {
    const dir = await keylessProject("refused");
    const result = await runInProcess(["build", "--now", NOW], dir, withoutKeys);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "spi-static: no API keys: the worker would refuse every key. Give --keys-file <path> or SPI_API_KEYS, " +
        "or --keys-at-edge when the deployment sets the API_KEY_SHA256 secret\n",
    );
    expect(await readdir(dir)).toEqual(["data"]);
  });

  it("builds with --keys-at-edge: the digests then come from the deployment's secret", async () => {
    const dir = await keylessProject("at-edge");
    const result = await runInProcess(
      ["build", "--now", NOW, "--keys-at-edge", "--json"],
      dir,
      withoutKeys,
    );
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).keys).toEqual({
      origin: "API_KEY_SHA256 at the edge",
      demo: false,
      count: 0,
    });
    expect(await readFile(join(dir, "out/_worker.js"), "utf8")).toContain('"keyDigests": []');
  });

  it("builds with --keys-at-edge and no digest even when the data folder has a development key", async () => {
    const dir = join(root, "at-edge-with-dev-key");
    await cp("test/fixtures/minimal", join(dir, "data"), { recursive: true });
    const devKey = (await readFile(join(dir, "data/keys.dev.txt"), "utf8")).trim();
    expect(devKey).not.toBe("");
    const result = await runInProcess(
      ["build", "--now", NOW, "--keys-at-edge", "--json"],
      dir,
      withoutKeys,
    );
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).keys).toMatchObject({ demo: false, count: 0 });
    expect(await readFile(join(dir, "out/_worker.js"), "utf8")).toContain('"keyDigests": []');
  });

  it("refuses --keys-at-edge together with keys given, writing nothing", async () => {
    const dir = await keylessProject("contradiction");
    const withFile = await runInProcess(
      ["build", "--now", NOW, "--keys-at-edge", "--keys-file", "data/provider.yaml"],
      dir,
      withoutKeys,
    );
    expect(withFile.exitCode).toBe(2);
    expect(withFile.stderr).toContain("--keys-at-edge builds without keys, but --keys-file");
    const withList = await runInProcess(["build", "--now", NOW, "--keys-at-edge"], dir, {
      SPI_API_KEYS: "some-key-0000000001",
    });
    expect(withList.exitCode).toBe(2);
    expect(withList.stderr).toContain("but SPI_API_KEYS gives some");
    expect(await readdir(dir)).toEqual(["data"]);
  });
});
