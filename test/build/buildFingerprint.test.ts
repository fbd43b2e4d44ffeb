import { cp, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  describeDependencies,
  type FingerprintInputs,
  fingerprintOf,
  fingerprintProgram,
  readBuildSources,
} from "../../src/build/buildFingerprint.js";

const MINIMAL = "test/fixtures/minimal";
/** What the up-to-date check compares: a SHA-256 over the build's sources. */
const fingerprintBuild = (inputs: FingerprintInputs) => fingerprintOf(readBuildSources(inputs));

let dataDir: string;
beforeEach(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), "spi-fingerprint-")), "data");
  await cp(MINIMAL, dataDir, { recursive: true });
});

describe("a build's fingerprint", () => {
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
  it("names each runtime dependency, and theirs, with the version resolved as Node resolves it, hoisted or nested", async () => {
    const project = await mkdtemp(join(tmpdir(), "spi-dependencies-"));
    const installed = join(project, "node_modules/spi-static");
    const writePackage = async (dir: string, manifest: object) => {
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, "package.json"), JSON.stringify(manifest));
    };
    await writePackage(project, { name: "broadcaster-data" });
    await writePackage(installed, {
      name: "spi-static",
      version: "1.0.0",
      dependencies: { yaml: "^2", "@scope/nested": "^1" },
      optionalDependencies: { "other-platform": "^1" },
      devDependencies: { vitest: "^4" },
    });
    // One hoisted into the project's node_modules, one nested under the package itself, with a
    // dependency of its own (a binary's version, say) hoisted.
    await writePackage(join(project, "node_modules/yaml"), { name: "yaml", version: "2.9.1" });
    await writePackage(join(installed, "node_modules/@scope/nested"), {
      version: "1.0.3",
      dependencies: { libvips: "^8" },
    });
    await writePackage(join(project, "node_modules/libvips"), { version: "8.17.0" });
    expect(describeDependencies(installed)).toEqual([
      ["@scope/nested", "1.0.3"],
      ["libvips", "8.17.0"],
      ["yaml", "2.9.1"],
    ]);
    // `npm update` of a dependency of a dependency: another description.
    await writePackage(join(project, "node_modules/libvips"), { version: "8.17.1" });
    expect(describeDependencies(installed)).toContainEqual(["libvips", "8.17.1"]);
    await rm(project, { recursive: true, force: true });
  });

  it("is unknown, never equal to an earlier value, for a dependency that is missing or has no version", async () => {
    const project = await mkdtemp(join(tmpdir(), "spi-dependencies-"));
    await mkdir(join(project, "node_modules/versionless"), { recursive: true });
    await writeFile(join(project, "node_modules/versionless/package.json"), "{}");
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ version: "1.0.0", dependencies: { gone: "^1", versionless: "^1" } }),
    );
    const first = describeDependencies(project);
    expect(first.map(([name]) => name)).toEqual(["gone", "versionless"]);
    const again = describeDependencies(project);
    for (const [index, [, version]] of first.entries()) {
      expect(version).toMatch(/^unknown /);
      expect(again[index]?.[1]).not.toBe(version);
    }
    // The package's own manifest unreadable: its dependencies are unknown too.
    await rm(join(project, "package.json"));
    expect(describeDependencies(project)).toEqual([
      ["dependencies", expect.stringMatching(/^unknown /)],
    ]);
    await rm(project, { recursive: true, force: true });
  });
});
