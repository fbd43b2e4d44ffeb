import { cp, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { fingerprintBuild } from "../src/buildFingerprint.js";

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

    // The load stage then says why (test/load/dataFolder.test.ts: an unreadable folder).
    expect(fingerprintBuild({ dataDir: join(dataDir, "nowhere"), keyDigests: [] })).toMatch(
      /^[0-9a-f]{64}$/,
    );
  });
});
