import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-import-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const SI = resolve("test/fixtures/import/SI.xml");
const PI = resolve("test/fixtures/import/PI_real.xml");

describe("spi-static import", () => {
  it("needs --time-zone, an IANA zone (exit 2)", async () => {
    const missing = await runInProcess(["import", SI, PI], root);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("required option '--time-zone <zone>' not specified");
    const city = await runInProcess(["import", SI, PI, "--time-zone", "London"], root);
    expect(city.exitCode).toBe(2);
    expect(city.stderr).toContain('did you mean "Europe/London"?');
  });

  it("takes a service's own zone as <id>=<zone>, and refuses a service the feed does not have", async () => {
    const malformed = await runInProcess(
      ["import", SI, PI, "--time-zone", "Europe/London", "--service-time-zone", "london"],
      root,
    );
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain("expected <service id>=<IANA zone>");
    const unknown = await runInProcess(
      [
        ...["import", SI, PI, "--time-zone", "Europe/London", "--data", "zones"],
        ...["--service-time-zone", "heart=Europe/Dublin"],
      ],
      root,
    );
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(
      "--service-time-zone names heart: the feed's services are london",
    );
  });

  it("writes provider, service and schedule, and prints the notes and a summary", async () => {
    const run = await runInProcess(
      ["import", SI, PI, "--time-zone", "Europe/London", "--data", "out1"],
      root,
    );
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /SI\.xml:4:3: no longName: "Global Radio" is used as the long name too\n/,
    );
    expect(run.stdout).toMatch(
      /spi-static: imported 1 service and 9 programmes into out1 \(4 files\); \d+ notes on what the data cannot say; valid\n$/,
    );
    const schedule = await readFile(join(root, "out1/schedules/london.yaml"), "utf8");
    expect(schedule).toMatch(
      /^# yaml-language-server: \$schema=\.\.\/\.\.\/schema\/schedule\.schema\.json\n/,
    );
  });

  it("never replaces a data folder's files without --force (exit 2, nothing written)", async () => {
    await mkdir(join(root, "taken/services"), { recursive: true });
    await writeFile(join(root, "taken/provider.yaml"), "# mine\n");
    const run = await runInProcess(
      ["import", SI, PI, "--time-zone", "Europe/London", "--data", "taken"],
      root,
    );
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      "taken/provider.yaml already exist: nothing was written (--force replaces them)",
    );
    expect(await readFile(join(root, "taken/provider.yaml"), "utf8")).toBe("# mine\n");
    await expect(readFile(join(root, "taken/services/london.yaml"))).rejects.toThrow(/ENOENT/);
    const forced = await runInProcess(
      ["import", SI, PI, "--time-zone", "Europe/London", "--data", "taken", "--force"],
      root,
    );
    expect(forced.exitCode).toBe(0);
    expect(await readFile(join(root, "taken/provider.yaml"), "utf8")).toContain(
      "name: { short: Global",
    );
  });

  it("stops with exit 3 when the feed has no SI document", async () => {
    const run = await runInProcess(
      ["import", PI, "--time-zone", "Europe/London", "--data", "nosi"],
      root,
    );
    expect(run.exitCode).toBe(3);
    expect(run.stderr).toContain(
      "the feed has no SI document (<serviceInformation> of SPI 3.1): services cannot be imported without it",
    );
  });
});
