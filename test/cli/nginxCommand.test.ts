import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { digestOfKey } from "../../src/edge/apiKeys.js";
import { type BuiltSite, buildTestSite, VALID_KEYS } from "../edge/builtSite.js";
import { runInProcess } from "./runInProcess.js";

let built: BuiltSite;
let root: string;
const OTHER_KEY = "nginx-only-key-000000001";

beforeAll(async () => {
  built = await buildTestSite("keyed");
  root = await mkdtemp(join(tmpdir(), "spi-static-nginx-cli-"));
}, 60_000);

const nginx = (dir: string, ...more: string[]) =>
  runInProcess(["nginx", "--out", built.outDir, "--dir", join(root, dir), ...more], root);

describe("spi-static nginx", () => {
  it("writes the server block, the directives for one's own server and the module, with the build's key digests only", async () => {
    const result = await nginx(
      "plain",
      "--listen",
      "[::1]:8443",
      "--server-name",
      "spi.example.org",
    );
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect((await readdir(join(root, "plain"))).sort()).toEqual([
      "spi-static-api.conf",
      "spi-static-site.json",
      "spi-static.conf",
      "spi-static.js",
    ]);
    const server = await readFile(join(root, "plain", "spi-static.conf"), "utf8");
    expect(server).toContain("listen [::1]:8443;");
    expect(server).toContain("server_name spi.example.org;");
    expect(server).toContain(`include "${join(root, "plain", "spi-static-api.conf")}";`);
    const module = await readFile(join(root, "plain", "spi-static.js"), "utf8");
    for (const key of VALID_KEYS) {
      expect(module).toContain(digestOfKey(key));
      expect(module).not.toContain(key);
    }
    expect(module).toContain(JSON.stringify(built.outDir));
    expect(result.stdout).toContain("run this again when keys or services change");
  });

  it("takes keys from --keys-file or SPI_API_KEYS instead, as the build does", async () => {
    const keysFile = join(root, "keys.txt");
    await writeFile(keysFile, `# for nginx\n${OTHER_KEY}\n`);
    expect((await nginx("fromFile", "--keys-file", keysFile)).exitCode).toBe(0);
    const env = await runInProcess(
      ["nginx", "--out", built.outDir, "--dir", join(root, "fromEnv")],
      root,
      { SPI_API_KEYS: OTHER_KEY },
    );
    expect(env.exitCode).toBe(0);
    for (const dir of ["fromFile", "fromEnv"]) {
      const module = await readFile(join(root, dir, "spi-static.js"), "utf8");
      expect(module).toContain(digestOfKey(OTHER_KEY));
      expect(module).not.toContain(OTHER_KEY);
      expect(module).not.toContain(digestOfKey(VALID_KEYS[0]));
    }
  });

  it("takes a deployment's digests file, and refuses one holding a key with its line and column", async () => {
    const good = join(root, "good.sha256");
    await writeFile(good, `${digestOfKey(OTHER_KEY)}  -\n`);
    expect((await nginx("digests", "--digests-file", good)).exitCode).toBe(0);
    const module = await readFile(join(root, "digests", "spi-static.js"), "utf8");
    expect(module).toContain(digestOfKey(OTHER_KEY));

    const bad = join(root, "bad.sha256");
    await writeFile(bad, `${digestOfKey(OTHER_KEY)}\n  ${OTHER_KEY}\n`);
    const result = await nginx("badDigests", "--digests-file", bad);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`${bad}:2:3 entry 2: not a SHA-256 digest`);
    expect(result.stderr).not.toContain(OTHER_KEY);
    expect(existsSync(join(root, "badDigests", "spi-static.js"))).toBe(false);
  });

  it("refuses a folder inside the served one, an unbuilt folder and a malformed listen address", async () => {
    const inside = await runInProcess(
      ["nginx", "--out", built.outDir, "--dir", join(built.outDir, "nginx")],
      root,
    );
    expect(inside.exitCode).toBe(2);
    expect(inside.stderr).toContain("inside the served folder");
    expect(existsSync(join(built.outDir, "nginx"))).toBe(false);

    const unbuilt = await runInProcess(["nginx", "--out", root, "--dir", join(root, "x")], root);
    expect(unbuilt.exitCode).toBe(2);
    expect(unbuilt.stderr).toContain("run spi-static build first");

    const listen = await nginx("listen", "--listen", "8080; include /etc/passwd");
    expect(listen.exitCode).toBe(2);
    expect(listen.stderr).toContain("give a port or address:port");
  });
});
