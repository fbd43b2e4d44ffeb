import { cp, mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-data-folder-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const NOW = "2026-11-23T08:00:00Z";

async function folder(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

describe("the data folder", () => {
  it("is never the bundled example by accident: no ./data is a usage error naming what to do", async () => {
    const dir = await folder("empty");
    for (const command of ["build", "validate"]) {
      const result = await runInProcess([command, "--now", NOW], dir);
      expect(result.exitCode).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr).toBe(
        "spi-static: no data folder here (./data/provider.yaml is missing): run `npx spi-static init` to start a project, or pass --data <dir>\n",
      );
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses a data folder without provider.yaml, and one with provider.yml says to rename it", async () => {
    const dir = await folder("yml");
    await cp("test/fixtures/minimal", join(dir, "data"), { recursive: true });
    await rename(join(dir, "data/provider.yaml"), join(dir, "data/provider.yml"));
    for (const command of ["build", "validate"]) {
      const result = await runInProcess([command, "--now", NOW], dir);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe(
        "spi-static: found data/provider.yml: rename it to provider.yaml (spi-static reads only .yaml files)\n",
      );
    }
    await rm(join(dir, "data/provider.yml"));
    const result = await runInProcess(["build", "--now", NOW], dir);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "spi-static: data has no provider.yaml: run `npx spi-static init` to start a project, or pass --data <dir>\n",
    );
    expect(await readdir(dir)).toEqual(["data"]);
  });

  it("names a --data folder that does not exist in one line, exit 2", async () => {
    const dir = await folder("nope");
    for (const command of ["build", "validate"]) {
      const result = await runInProcess([command, "--data", "nope", "--now", NOW], dir);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toBe("spi-static: --data nope: no such folder\n");
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it("refuses a .yml service or schedule file as the provider's is refused, naming it", async () => {
    const dir = await folder("yml-service");
    await cp("test/fixtures/minimal", join(dir, "data"), { recursive: true });
    const [service] = await readdir(join(dir, "data/services"));
    const yml = (service as string).replace(/\.yaml$/, ".yml");
    await rename(join(dir, "data/services", service as string), join(dir, "data/services", yml));
    const result = await runInProcess(["validate", "--now", NOW], dir);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toContain(
      `data/services/${yml}:1:1: is a .yml file: rename it to ${yml.replace(/\.yml$/, ".yaml")} (spi-static reads only .yaml files)`,
    );
  });
});

describe("spi-static --version", () => {
  it("prints the package's version, also as -v", async () => {
    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    for (const flag of ["--version", "-v"]) {
      const result = await runInProcess([flag], root);
      expect(result).toEqual({ exitCode: 0, stdout: `${version}\n`, stderr: "" });
    }
  });

  it("is never the build's output folder, nor holds it: --out data is refused, nothing written", async () => {
    const dir = await folder("out-in-data");
    await cp("test/fixtures/minimal", join(dir, "data"), { recursive: true });
    const before = await readdir(join(dir, "data"), { recursive: true });
    for (const out of ["data", "./data/", "data/site"]) {
      const result = await runInProcess(["build", "--now", NOW, "--out", out], dir);
      expect(result.exitCode, out).toBe(2);
      expect(result.stderr).toMatch(/^spi-static: --out \S+ is (inside )?the data folder data: /);
    }
    expect(await readdir(join(dir, "data"), { recursive: true })).toEqual(before);
    expect(await readdir(dir)).toEqual(["data"]);
  });
});
