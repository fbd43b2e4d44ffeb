import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-verify-cli-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("spi-static verify's command line", () => {
  it("refuses a base URL without a scheme with one usage line", async () => {
    const result = await runInProcess(["verify", "127.0.0.1:8080"], root);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "spi-static: command-argument value '127.0.0.1:8080' is invalid for argument 'baseUrl'. expected an http(s) URL, e.g. https://spi.example.org or http://127.0.0.1:8080\n" +
        "see `spi-static verify --help`\n",
    );
  });

  it("refuses a timeout that is not a number of seconds", async () => {
    for (const timeout of ["abc", "0", "-1"]) {
      const result = await runInProcess(
        ["verify", "http://127.0.0.1:9", "--timeout", timeout],
        root,
      );
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain("expected a positive number of seconds up to 86400, e.g. 15");
    }
  });

  it("fails with exit 3 when the site cannot be reached, saying so in one check", async () => {
    const result = await runInProcess(
      ["verify", "http://127.0.0.1:9", "--without-key", "--timeout", "2"],
      root,
    );
    expect(result.exitCode).toBe(3);
    expect(result.stdout).toMatch(/^✗ site reachable: GET \/radiodns\/spi\/3\.1\/SI\.xml: /);
    expect(result.stdout).toMatch(/0 passed, 1 failed, 0 skipped/);
    // --quiet, for cron: the failure on stderr, which cron mails; a good night prints nothing.
    const quiet = await runInProcess(
      ["verify", "http://127.0.0.1:9", "--without-key", "--timeout", "2", "--quiet"],
      root,
    );
    expect(quiet.exitCode).toBe(3);
    expect(quiet.stdout).toBe("");
    expect(quiet.stderr).toBe(result.stdout);
  });

  it("refuses a --stale-after that is not 1 to 7 nights", async () => {
    for (const nights of ["0", "8", "1.5", "x"]) {
      const result = await runInProcess(
        ["verify", "http://127.0.0.1:9", "--stale-after", nights],
        root,
      );
      expect(result.exitCode, nights).toBe(2);
      expect(result.stderr).toContain("expected a number of nights from 1 to 7");
    }
  });

  it("refuses --without-key together with a key", async () => {
    const result = await runInProcess(
      ["verify", "http://127.0.0.1:9", "--without-key", "--key", "k".repeat(20)],
      root,
    );
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("spi-static: --without-key and a key contradict each other\n");
  });

  it("takes the key from a keys file, skipping comments, and names a bad line", async () => {
    const keys = join(root, "keys.txt");
    await writeFile(keys, "# our clients\n\nshort\n");
    const result = await runInProcess(["verify", "http://127.0.0.1:9", "--keys-file", keys], root);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`spi-static: ${keys}:3:1 key: a key needs at least 16 characters\n`);
    await writeFile(keys, "# our clients\n");
    const empty = await runInProcess(["verify", "http://127.0.0.1:9", "--keys-file", keys], root);
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr).toBe(`spi-static: ${keys} holds no key\n`);
  });
});
