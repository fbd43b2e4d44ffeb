import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-host-change-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const NOW = "2026-11-23T08:00:00Z";
const ID_DIR = join(root, "out/radiodns/spi/3.1/id");

beforeAll(async () => {
  await cp("test/fixtures/minimal", join(root, "data"), { recursive: true });
  expect((await runInProcess(["build", "--now", NOW, "--quiet"], root)).exitCode).toBe(0);
  const provider = join(root, "data/provider.yaml");
  const text = await readFile(provider, "utf8");
  await writeFile(provider, text.replace("rdns.test.example", "rdns.renamed.example"));
});

describe("spi-static build when radiodnsHost changed", () => {
  it("refuses, because every published PI URL would go away, and writes nothing", async () => {
    const before = await readdir(join(ID_DIR, "rdns.test.example/one"));
    const result = await runInProcess(["build", "--now", NOW], root);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "spi-static: out holds the PI files of rdns.test.example, but radiodnsHost is now rdns.renamed.example: " +
        "building would unpublish every PI URL clients know; pass --change-host to do it anyway\n",
    );
    expect(await readdir(ID_DIR)).toEqual(["rdns.test.example"]);
    expect(await readdir(join(ID_DIR, "rdns.test.example/one"))).toEqual(before);
  });

  it("moves to the new host with --change-host", async () => {
    const result = await runInProcess(["build", "--now", NOW, "--change-host", "--quiet"], root);
    expect(result.exitCode).toBe(0);
    expect(await readdir(ID_DIR)).toEqual(["rdns.renamed.example"]);
  });
});
