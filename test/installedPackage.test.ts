import { type ChildProcess, execFile, spawn } from "node:child_process";
import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as a broadcaster gets it: packed, installed from the tarball into a fresh project
 * made by `npm init -y` (CommonJS), and run through `npx` from there — not the repository's
 * own files. dist/ is fresh from test/globalSetup.ts, so the pack skips the prepack script.
 */
const root = await mkdtemp(join(tmpdir(), "spi-static-installed-"));
const project = join(root, "my-radio");
let serve: ChildProcess | undefined;
let packedFiles: string[] = [];

afterAll(async () => {
  // npx runs the CLI in a child of its own: stop the whole process group.
  if (serve?.pid && serve.exitCode === null) process.kill(-serve.pid, "SIGTERM");
  await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const NPM_SETTINGS =
  /^npm_config_(cache|userconfig|globalconfig|registry|offline|prefer_offline)$/i;

function run(
  command: string,
  args: string[],
  cwd: string,
  extraEnv: Record<string, string> = {},
): Promise<Run> {
  return new Promise((done, fail) => {
    // The npm_* variables of `npm test` would point npm at this repository (local_prefix and
    // the package's own fields); only where npm keeps its cache and settings is passed on.
    const env = {
      ...Object.fromEntries(
        Object.entries(process.env).filter(
          ([name]) => !/^npm_/i.test(name) || NPM_SETTINGS.test(name),
        ),
      ),
      ...extraEnv,
    };
    execFile(command, args, { cwd, env, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== "number") fail(error);
      else done({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

const npx = (args: string[], env?: Record<string, string>) =>
  run("npx", ["spi-static", ...args], project, env);

beforeAll(async () => {
  const packed = await run(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", root],
    resolve("."),
  );
  expect(packed.code, packed.stderr).toBe(0);
  const [{ filename, files }] = JSON.parse(packed.stdout) as [
    { filename: string; files: { path: string }[] },
  ];
  packedFiles = files.map((file) => file.path);
  await run("mkdir", [project], root);
  expect((await run("npm", ["init", "-y"], project)).code).toBe(0);
  expect((await run("npm", ["pkg", "set", "type=commonjs"], project)).code).toBe(0);
  // From the npm cache when it holds the dependencies (CI ran npm ci just before).
  const installed = await run(
    "npm",
    ["install", join(root, filename), "--prefer-offline", "--no-audit", "--no-fund"],
    project,
  );
  expect(installed.code, installed.stderr).toBe(0);
}, 300_000);

describe("the installed package, used as the README says", () => {
  it("ships its licence and what runs, but no source maps of unshipped sources or maintainers' files", () => {
    expect(packedFiles).toEqual(
      expect.arrayContaining(["LICENSE", "dist/cli/main.js", "templates/wrangler.jsonc.tmpl"]),
    );
    expect(packedFiles.filter((path) => path.endsWith(".map") || path.startsWith("src/"))).toEqual(
      [],
    );
    expect(packedFiles).not.toContain("templates/github-workflow-release.yml");
    expect(packedFiles).toContain("templates/github-workflow-nightly.yml");
  });

  it("runs --version, init, validate, build, serve, and verify with every check run", async () => {
    const { version } = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
    expect(await npx(["--version"])).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(JSON.parse(await readFile(join(project, "package.json"), "utf8")).type).toBe("commonjs");

    const init = await npx(["init"]);
    expect(init.code, init.stderr).toBe(0);
    expect(await readFile(join(project, "wrangler.jsonc"), "utf8")).toContain(
      '"name": "spi-my-radio"',
    );
    const validate = await npx(["validate"]);
    expect(validate.code, validate.stdout).toBe(0);
    expect(validate.stdout).toMatch(/^spi-static: data is valid, 0 warnings, 1 service ready/m);
    const build = await npx(["build"]);
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toContain("only the development key of data/keys.dev.txt");
    // sharp installed from its prebuilt binaries (it has no install script, so no compiler is
    // ever asked for), and the build made every logo size from init's placeholder with them.
    const sharp = JSON.parse(
      await readFile(join(project, "node_modules/sharp/package.json"), "utf8"),
    ) as { scripts?: Record<string, string> };
    expect(sharp.scripts?.install).toBeUndefined();
    const binaries = await readdir(join(project, "node_modules/@img"));
    expect(binaries).toContain(`sharp-${process.platform}-${process.arch}`);
    expect(await readdir(join(project, "out/logos/services/main"))).toHaveLength(5);

    serve = spawn("npx", ["spi-static", "serve", "--port", "0"], {
      cwd: project,
      detached: true,
    });
    const started = serve;
    let printed = "";
    const verifyLine = await new Promise<string>((done, fail) => {
      started.stdout?.on("data", (chunk: Buffer) => {
        printed += chunk.toString();
        const line = /verify: +npx spi-static verify (\S+) --keys-file (\S+)/.exec(printed);
        if (line) done(`${line[1]} ${line[2]}`);
      });
      started.on("exit", (code) => fail(new Error(`serve exited (${code}): ${printed}`)));
    });
    const [origin = "", keysFile = ""] = verifyLine.split(" ");
    expect(keysFile).toBe("data/keys.dev.txt");

    const verify = await npx(["verify", origin, "--keys-file", keysFile, "--json"]);
    const report = JSON.parse(verify.stdout) as {
      ok: boolean;
      checks: { name: string; ok: boolean; skipped?: true }[];
    };
    expect(report.checks.filter((check) => !check.ok || check.skipped)).toEqual([]);
    expect(report.checks.some((check) => check.name.startsWith("PI for main, today"))).toBe(true);
    expect(verify.code).toBe(0);
  }, 120_000);

  it("writes the nginx files from the module lowered when the package was built, without Babel", async () => {
    // Babel (37 MB) only lowers the module at package build time: no dependency of the package.
    await expect(readdir(join(project, "node_modules/@babel"))).rejects.toThrow();
    const nginx = await npx(["nginx", "--dir", "nginx", "--listen", "127.0.0.1:8080"]);
    expect(nginx.code, nginx.stderr).toBe(0);
    const module = await readFile(join(project, "nginx/spi-static.js"), "utf8");
    expect(module).toContain("export default");
    expect(module).toContain('"keyDigests":[');
    expect(await readdir(join(project, "nginx"))).toHaveLength(4);
  }, 60_000);
});

/**
 * Upgrades as a broadcaster's project sees them: the installed package's compiled code changed
 * (a new spi-static release), and a dependency's version moved (`npm update`), each on a day
 * when the data did not change. Runs on the project the test above made (init, build).
 */
describe("the installed package, upgraded", () => {
  const installed = join(project, "node_modules/spi-static");
  const build = async () => {
    const built = await npx(["build", "--json"], { SPI_STATIC_DEBUG: "stamp,plan" });
    expect(built.code, built.stderr).toBe(0);
    const summary = JSON.parse(built.stdout) as {
      upToDate: boolean;
      rendered: number;
      reused: number;
    };
    return { ...summary, debug: built.stderr };
  };
  const published = async (extension: string) =>
    (await readdir(join(project, "out"), { recursive: true })).filter(
      (path) => path.endsWith(extension) && !path.startsWith("_spi-static"),
    );
  /**
   * Reused after an upgrade: only logos, whose names are a hash of all their bytes depend on,
   * the image library's version included (load/logosFromSource.ts).
   */
  const logos = async () => (await published(".png")).length;
  /** Each published XML document's first line. */
  const declarations = async () => {
    const out = join(project, "out");
    const paths = await published(".xml");
    return Promise.all(
      paths.map(async (path) => (await readFile(join(out, path), "utf8")).split("\n")[0]),
    );
  };

  it("renders every document again the same day when its compiled code changes, and writes those whose bytes change", async () => {
    expect((await build()).upToDate).toBe(true);
    // What a release that changes the output does: every XML document starts otherwise.
    const writer = join(installed, "dist/render/xmlWriter.js");
    const code = await readFile(writer, "utf8");
    expect(code).toContain(`'<?xml version="1.0" encoding="UTF-8"?>'`);
    await writeFile(writer, code.replace(`encoding="UTF-8"?>'`, `encoding="utf-8"?>'`));
    const upgraded = await build();
    expect(upgraded).toMatchObject({ upToDate: false, reused: await logos() });
    // Why, by name: not up to date, and each document rendered again.
    expect(upgraded.debug).toMatch(/debug stamp: building \S+: the program changed: code \(/);
    expect(upgraded.debug).toMatch(
      /debug plan: \S+_PI\.xml: rendered: its inputs changed: the program changed: code\n/,
    );
    const published = await declarations();
    // Every PI document of the window and both SI documents, each rendered again.
    expect(published.length).toBeGreaterThanOrEqual(17);
    expect(upgraded.rendered).toBeGreaterThanOrEqual(published.length);
    expect(new Set(published)).toEqual(new Set(['<?xml version="1.0" encoding="utf-8"?>']));
    expect((await build()).upToDate).toBe(true);

    // A release whose change leaves the bytes as they were: rendered again all the same.
    await appendFile(join(installed, "dist/render/renderSite.js"), "\n// 0.1.1\n");
    const again = await build();
    expect(again).toMatchObject({
      upToDate: false,
      reused: await logos(),
      rendered: upgraded.rendered,
    });
  }, 120_000);

  it("renders every document again the same day when a dependency's installed version changes", async () => {
    expect((await build()).upToDate).toBe(true);
    const manifestPath = join(project, "node_modules/@date-fns/tz/package.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as { version: string };
    await writeFile(manifestPath, JSON.stringify({ ...manifest, version: "99.0.0" }));
    const updated = await build();
    expect(updated).toMatchObject({ upToDate: false, reused: await logos() });
    expect(updated.debug).toMatch(
      new RegExp(
        `debug stamp: building \\S+: the program changed: @date-fns/tz ${manifest.version} → 99\\.0\\.0 \\(`,
      ),
    );
    expect(updated.debug).toMatch(
      /debug plan: main: laid out in full: its inputs changed: the program changed: @date-fns\/tz /,
    );
    expect(updated.rendered).toBeGreaterThanOrEqual(17);
  }, 120_000);
});

/**
 * The regression of issue 33 put back on purpose: the program's fingerprint a constant, so that
 * no recorded input says the program changed. The build's own reuse check must still find out.
 */
describe("the installed package, with a fingerprint that misses a change", () => {
  const installed = join(project, "node_modules/spi-static");

  it("warns on the next nightly, renders everything again, and leaves no published document stale", async () => {
    const fingerprint = join(installed, "dist/build/buildFingerprint.js");
    const code = await readFile(fingerprint, "utf8");
    const constant = code.replace(
      "function describeProgram() {",
      'function describeProgram() {\n    return new Map([["code", "the same whatever runs"]]);',
    );
    expect(constant).not.toBe(code);
    await writeFile(fingerprint, constant);
    const build = async (now: string) => {
      const built = await npx(["build", "--json", "--now", now], { SPI_STATIC_DEBUG: "plan" });
      expect(built.code, built.stderr).toBe(0);
      return { ...(JSON.parse(built.stdout) as { notes: string[] }), debug: built.stderr };
    };
    await build("2026-12-01T04:00:00Z");
    // A release that changes every XML document, unseen by the (constant) fingerprint.
    const writer = join(installed, "dist/render/xmlWriter.js");
    const writerCode = await readFile(writer, "utf8");
    await writeFile(writer, writerCode.replace(`encoding="utf-8"?>'`, `encoding="UTF-8"?>'`));
    const nightly = await build("2026-12-02T04:00:00Z");
    expect(nightly.debug).toMatch(/debug plan: main: reuse check: renders \S+_PI\.xml again/);
    expect(nightly.notes).toEqual([
      expect.stringMatching(
        /_PI\.xml \(reused: its inputs and file as the last build recorded them\) renders otherwise with this program and data: .* every document was rendered again, as with --force$/,
      ),
    ]);
    const out = join(project, "out");
    const xml = (await readdir(out, { recursive: true })).filter(
      (path) => path.endsWith(".xml") && !path.startsWith("_spi-static"),
    );
    expect(xml.length).toBeGreaterThanOrEqual(17);
    for (const path of xml) {
      expect((await readFile(join(out, path), "utf8")).split("\n")[0], path).toBe(
        '<?xml version="1.0" encoding="UTF-8"?>',
      );
    }
  }, 120_000);
});
