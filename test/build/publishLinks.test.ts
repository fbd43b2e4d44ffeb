import { execFile, execFileSync } from "node:child_process";
import { cp, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { snapshotTree } from "../outputFolder.js";
import { CLI, EXAMPLE, NEXT_NIGHT, NOW, SERVICE_DIR } from "./exampleBuild.js";

const PUBLISH = new URL("../../dist/build/publishSite.js", import.meta.url).href;
const STATE = new URL("../../dist/build/buildState.js", import.meta.url).href;

interface CliRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** A build that hangs is killed after 30 s: its code is then the signal, never 3. */
function build(outDir: string, now: string, ...more: string[]): Promise<CliRun> {
  const args = [CLI, "build", "--data", EXAMPLE, "--out", outDir, "--now", now, ...more];
  return new Promise((done) => {
    execFile(process.execPath, args, { timeout: 30_000 }, (error, stdout, stderr) => {
      done({ code: error ? (error.code ?? error.signal ?? "killed") : 0, stdout, stderr });
    });
  });
}

/** Last night's site in out/, and a folder outside it that links may point into. */
async function publishedSite() {
  const outDir = await mkdtemp(join(tmpdir(), "spi-links-"));
  const outside = await mkdtemp(join(tmpdir(), "spi-links-outside-"));
  const first = await build(outDir, NOW, "--quiet");
  expect(first, first.stderr).toMatchObject({ code: 0 });
  return { outDir, outside };
}

/** Tonight's build stops with exit 3 naming `path`, and nothing in or outside out/ changed. */
async function expectRefused(outDir: string, outside: string, path: string) {
  const before = [await snapshotTree(outDir), await snapshotTree(outside)];
  const run = await build(outDir, NEXT_NIGHT);
  expect(run.code, run.stderr).toBe(3);
  expect(run.stderr).toContain(
    `cannot write ${join(outDir, path)}: it is a link or a special file`,
  );
  expect([await snapshotTree(outDir), await snapshotTree(outside)]).toEqual(before);
}

describe("a build never writes or deletes through a link in out/, nor into a special file", () => {
  it("refuses a service folder that is a link to a folder outside out/", async () => {
    const { outDir, outside } = await publishedSite();
    await rename(join(outDir, SERVICE_DIR), join(outside, "news"));
    await symlink(join(outside, "news"), join(outDir, SERVICE_DIR));
    await expectRefused(outDir, outside, SERVICE_DIR);
    const json = await build(outDir, NEXT_NIGHT, "--json");
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, path: join(outDir, SERVICE_DIR) });
  });

  it("refuses a document that is a link to a file outside out/", async () => {
    const { outDir, outside } = await publishedSite();
    await writeFile(join(outside, "mine.xml"), "not spi-static's\n");
    await rm(join(outDir, "radiodns/spi/3.1/SI.xml"));
    await symlink(join(outside, "mine.xml"), join(outDir, "radiodns/spi/3.1/SI.xml"));
    await expectRefused(outDir, outside, "radiodns/spi/3.1/SI.xml");
  });

  it("refuses a FIFO at a document path without hanging", async () => {
    const { outDir, outside } = await publishedSite();
    const path = `${SERVICE_DIR}/20261124_PI.xml`;
    await rm(join(outDir, path));
    execFileSync("mkfifo", [join(outDir, path)]);
    await expectRefused(outDir, outside, path);
  });

  it("refuses a bookkeeping folder that is a link, before taking the lock inside it", async () => {
    const { outDir, outside } = await publishedSite();
    await cp(join(outDir, "_spi-static"), join(outside, "state"), { recursive: true });
    await rm(join(outDir, "_spi-static"), { recursive: true });
    await symlink(join(outside, "state"), join(outDir, "_spi-static"));
    await expectRefused(outDir, outside, "_spi-static");
  });

  it("refuses a FIFO in the bookkeeping folder without hanging", async () => {
    const { outDir, outside } = await publishedSite();
    await rm(join(outDir, "_spi-static/state.json"));
    execFileSync("mkfifo", [join(outDir, "_spi-static/state.json")]);
    await expectRefused(outDir, outside, "_spi-static/state.json");
  });

  it("refuses any link in out/, even one beside the site (README: out/ holds only files and folders)", async () => {
    const { outDir, outside } = await publishedSite();
    await writeFile(join(outside, "robots.txt"), "User-agent: *\n");
    await symlink(join(outside, "robots.txt"), join(outDir, "robots.txt"));
    await expectRefused(outDir, outside, "robots.txt");
  });

  it("accepts an output folder that is itself a link", async () => {
    const { outDir, outside } = await publishedSite();
    const linked = join(outside, "out");
    await symlink(outDir, linked);
    const run = await build(linked, NEXT_NIGHT, "--quiet");
    expect(run, run.stderr).toMatchObject({ code: 0 });
  });

  it("stops at a FIFO that appears at a document path while it publishes, without hanging", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-links-late-"));
    // In a child process: a blocking read of a FIFO would freeze this one for good.
    const script = `
      import { execFileSync } from "node:child_process";
      import { mkdirSync } from "node:fs";
      import { holdOutputFolder, publishSite } from ${JSON.stringify(PUBLISH)};
      import { readBuildState } from ${JSON.stringify(STATE)};
      const outDir = process.argv[1];
      const release = await holdOutputFolder(outDir);
      async function* documents() {
        yield { path: "a/early.xml", content: Buffer.from("<a/>\\n") };
        mkdirSync(outDir + "/b");
        execFileSync("mkfifo", [outDir + "/b/late.xml"]);
        yield { path: "b/late.xml", content: Buffer.from("<b/>\\n") };
      }
      await publishSite(outDir, documents(), { state: readBuildState(outDir) }).then(
        () => console.log("published"),
        (error) => console.log(error.name + ": " + error.message),
      );
      await release();`;
    const output = await new Promise<string>((done) => {
      execFile(
        process.execPath,
        ["--input-type=module", "-e", script, outDir],
        { timeout: 20_000 },
        (error, stdout) => done(error ? `failed: ${error.signal ?? error.code}` : stdout),
      );
    });
    expect(output).toContain(
      `PublishError: cannot write ${join(outDir, "b/late.xml")}: it is not a regular file`,
    );
  });
});
