import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  describeDependencies,
  fingerprintBuild,
  fingerprintProgram,
} from "../../src/build/buildFingerprint.js";

const MINIMAL = "test/fixtures/minimal";

let dataDir: string;
beforeEach(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), "spi-fingerprint-")), "data");
  await cp(MINIMAL, dataDir, { recursive: true });
});

describe("fingerprintBuild", () => {
  it("is the same for the same data and keys", () => {
    const first = fingerprintBuild({ dataDir, keyDigests: ["d1", "d2"] });
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintBuild({ dataDir, keyDigests: ["d2", "d1"] })).toBe(first);
  });

  it("changes with one edited byte, an added file, and the keys", async () => {
    const before = fingerprintBuild({ dataDir, keyDigests: ["d1"] });
    expect(fingerprintBuild({ dataDir, keyDigests: ["d1", "d3"] })).not.toBe(before);

    await writeFile(join(dataDir, "services/two.yaml"), "id: two\n");
    const added = fingerprintBuild({ dataDir, keyDigests: ["d1"] });
    expect(added).not.toBe(before);

    await writeFile(join(dataDir, "services/two.yaml"), "id: twO\n");
    expect(fingerprintBuild({ dataDir, keyDigests: ["d1"] })).not.toBe(added);
  });

  it("changes when a link points elsewhere, and hashes a folder it cannot list instead of failing", async () => {
    await symlink("one.yaml", join(dataDir, "schedules/two.yaml"));
    const linked = fingerprintBuild({ dataDir, keyDigests: [] });
    await rm(join(dataDir, "schedules/two.yaml"));
    await writeFile(join(dataDir, "schedules/three.yaml"), "");
    await symlink("three.yaml", join(dataDir, "schedules/two.yaml"));
    const relinked = fingerprintBuild({ dataDir, keyDigests: [] });
    expect(relinked).not.toBe(linked);

    // The load stage then says why (test/load/files/dataFolder.test.ts: an unreadable folder).
    expect(fingerprintBuild({ dataDir: join(dataDir, "nowhere"), keyDigests: [] })).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });
});

describe("fingerprintProgram", () => {
  const tz = Object.getOwnPropertyDescriptor(process.versions, "tz");
  afterEach(() => {
    if (tz) Object.defineProperty(process.versions, "tz", tz);
  });

  it("changes with the runtime's time-zone data (a tzdata update moves UTC times)", () => {
    const before = fingerprintProgram();
    expect(fingerprintProgram()).toBe(before);
    Object.defineProperty(process.versions, "tz", { ...tz, value: "2099z" });
    expect(fingerprintProgram()).not.toBe(before);
  });
});

describe("describeDependencies", () => {
  it("names each runtime dependency with the version resolved from the package, hoisted or not", async () => {
    const project = await mkdtemp(join(tmpdir(), "spi-dependencies-"));
    const installed = join(project, "node_modules/spi-static");
    const writePackage = async (dir: string, manifest: object) => {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "package.json"), JSON.stringify(manifest));
    };
    await writePackage(project, { name: "broadcaster-data" });
    await writePackage(installed, {
      name: "spi-static",
      dependencies: { yaml: "^2", "@scope/nested": "^1", gone: "^1" },
      devDependencies: { vitest: "^4" },
    });
    // One hoisted into the project's node_modules, one nested under the package itself.
    await writePackage(join(project, "node_modules/yaml"), { name: "yaml", version: "2.9.1" });
    await writePackage(join(installed, "node_modules/@scope/nested"), { version: "1.0.3" });
    expect(describeDependencies(installed)).toBe("@scope/nested@1.0.3 gone@missing yaml@2.9.1");
    // `npm update` of a dependency: another description, so another program fingerprint.
    await writePackage(join(project, "node_modules/yaml"), { name: "yaml", version: "2.9.2" });
    expect(describeDependencies(installed)).toContain("yaml@2.9.2");
    await rm(project, { recursive: true, force: true });
  });
});
