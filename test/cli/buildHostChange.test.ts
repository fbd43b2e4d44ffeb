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

describe("spi-static build with services on their own FQDNs (test/fixtures/own-hosts)", () => {
  const project = join(root, "own-hosts");
  const idDir = join(project, "out/radiodns/spi/3.1/id");
  const build = (...options: string[]) =>
    runInProcess(["build", "--now", NOW, "--quiet", ...options], project);
  const moveService = async (id: string, from: string, to: string) => {
    const file = join(project, "data/services", `${id}.yaml`);
    await writeFile(file, (await readFile(file, "utf8")).replace(from, to));
  };

  beforeAll(async () => {
    await cp("test/fixtures/own-hosts", join(project, "data"), { recursive: true });
  });

  it("publishes under every FQDN and builds again: a host still in use is not foreign", async () => {
    expect((await build()).exitCode).toBe(0);
    expect(await readdir(idDir)).toEqual(["rdns.test.example", "two.test.example"]);
    expect(await readdir(join(idDir, "two.test.example"))).toEqual(["one", "two"]);
    expect((await build("--force")).exitCode).toBe(0);
  });

  it("lets a service leave a host others still use: its old PI files go as a removed service's do", async () => {
    await moveService("three", "fqdn: two.test.example", "fqdn: rdns.test.example");
    await moveService("three", "serviceIdentifier: one", "serviceIdentifier: three");
    expect((await build()).exitCode).toBe(0);
    expect(await readdir(join(idDir, "rdns.test.example"))).toEqual(["one", "three"]);
    expect(await readdir(join(idDir, "two.test.example"))).toEqual(["two"]);
  });

  it("refuses when the last service leaves a host, as when radiodnsHost changes, and moves with --change-host", async () => {
    await moveService("two", "fqdn: two.test.example", "fqdn: new.test.example");
    const before = await readdir(join(idDir, "two.test.example/two"));
    const refused = await runInProcess(["build", "--now", NOW], project);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toBe(
      "spi-static: out holds the PI files of two.test.example, but the FQDNs in use are now rdns.test.example, new.test.example: " +
        "building would unpublish every PI URL clients know; pass --change-host to do it anyway\n",
    );
    expect(await readdir(join(idDir, "two.test.example/two"))).toEqual(before);
    expect((await build("--change-host")).exitCode).toBe(0);
    expect(await readdir(idDir)).toEqual(["new.test.example", "rdns.test.example"]);
  });

  it("refuses when every service leaves the provider's radiodnsHost, though it is still radiodnsHost", async () => {
    for (const id of ["one", "three"]) {
      const file = join(project, "data/services", `${id}.yaml`);
      const text = await readFile(file, "utf8");
      await writeFile(
        file,
        text.includes("fqdn: rdns.test.example")
          ? text.replace("fqdn: rdns.test.example", "fqdn: four.test.example")
          : text.replace(/^id: one\n/m, "$&radiodns: { fqdn: four.test.example }\n"),
      );
    }
    const refused = await runInProcess(["build", "--now", NOW], project);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain(
      "out holds the PI files of rdns.test.example, but the FQDNs in use are now four.test.example, new.test.example:",
    );
    expect((await build("--change-host")).exitCode).toBe(0);
    expect(await readdir(idDir)).toEqual(["four.test.example", "new.test.example"]);
  });
});
