import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-init-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const SCAFFOLD = [
  ".gitignore",
  "data/keys.dev.txt",
  "data/logos/station.svg",
  "data/provider.yaml",
  "data/schedules/main.yaml",
  "data/services/main.yaml",
  "schema/episodes.schema.json",
  "schema/provider.schema.json",
  "schema/schedule.schema.json",
  "schema/service.schema.json",
  "wrangler.jsonc",
];

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(dir.length + 1)
        .replaceAll("\\", "/"),
    )
    .sort();
}

function devKeyOf(text: string): string | undefined {
  return text.split("\n").find((line) => line !== "" && !line.startsWith("#"));
}

describe("spi-static init", () => {
  it("scaffolds a project that validates without a warning and builds", async () => {
    const created = await runInProcess(["init", "station"], root);
    expect(created.exitCode).toBe(0);
    // Its next steps are the README's first site, the live preview (dev) among them.
    const next = /; next: cd station && (.+)\n$/.exec(created.stdout)?.[1]?.split(" && ") ?? [];
    expect(next).toEqual(["npx spi-static validate", "npx spi-static build", "npx spi-static dev"]);
    const readme = await readFile("README.md", "utf8");
    const firstSite = /## A first site\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
    const readmeSteps = firstSite.split("\n").map((line) => line.replace(/\s+#.*$/, "").trim());
    for (const step of next) expect(readmeSteps).toContain(step);
    const project = join(root, "station");
    expect(await filesUnder(project)).toEqual(SCAFFOLD);

    const validated = await runInProcess(["validate", "--now", "2026-11-23T08:00:00Z"], project);
    expect(validated.stdout).toBe(
      "spi-static: data is valid, 0 warnings, 1 service ready to build\n",
    );
    expect(validated.exitCode).toBe(0);

    const built = await runInProcess(["build", "--now", "2026-11-23T08:00:00Z", "--json"], project);
    expect(built.exitCode).toBe(0);
    expect(JSON.parse(built.stdout).keys).toEqual({
      origin: "data/keys.dev.txt",
      demo: true,
      count: 1,
    });
    const pi = await readdir(join(project, "out/radiodns/spi/3.1/id/rdns.myradio.example/main"));
    expect(pi).toHaveLength(17); // today ± 8
    // The placeholder logo makes every size, for the provider and the service.
    for (const owner of ["provider", "services/main"]) {
      const logos = await readdir(join(project, "out/logos", owner));
      expect(logos.map((name) => name.replace(/-[0-9a-f]{16}\.png$/, "")).sort()).toEqual([
        "112x32",
        "128x128",
        "320x240",
        "32x32",
        "600x600",
      ]);
    }
  });

  it("makes a development key of its own that git ignores and the build never publishes", async () => {
    const project = join(root, "keyed");
    await runInProcess(["init", project], root);
    const key = devKeyOf(await readFile(join(project, "data/keys.dev.txt"), "utf8"));
    expect(key).toMatch(/^dev-[0-9a-f]{32}$/);
    await runInProcess(["init", join(root, "other")], root);
    expect(devKeyOf(await readFile(join(root, "other/data/keys.dev.txt"), "utf8"))).not.toBe(key);

    execFileSync("git", ["init", "-q"], { cwd: project });
    await runInProcess(["build", "--now", "2026-11-23T08:00:00Z", "--quiet"], project);
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(status.split("\n").filter(Boolean).sort()).toEqual([
      "?? .gitignore",
      "?? data/logos/station.svg",
      "?? data/provider.yaml",
      "?? data/schedules/main.yaml",
      "?? data/services/main.yaml",
      "?? schema/episodes.schema.json",
      "?? schema/provider.schema.json",
      "?? schema/schedule.schema.json",
      "?? schema/service.schema.json",
      "?? wrangler.jsonc",
    ]);
    for (const file of await filesUnder(join(project, "out"))) {
      expect(await readFile(join(project, "out", file), "utf8")).not.toContain(key);
    }
  });

  it("writes a wrangler config named after the folder, pointing at out/, that builds never touch", async () => {
    const project = join(root, "Radio Aare");
    await runInProcess(["init", project], root);
    const config = join(project, "wrangler.jsonc");
    const text = await readFile(config, "utf8");
    expect(text).toContain('"name": "spi-radio-aare"');
    expect(text).toContain('"main": "out/_worker.js"');
    expect(text).toMatch(/"directory": "out",\s+"binding": "ASSETS",[^}]+"run_worker_first": true/);
    const mine = text.replace('// "routes"', '"routes"').replace("spi-radio-aare", "my-worker");
    await writeFile(config, mine);
    const built = await runInProcess(
      ["build", "--now", "2026-11-23T08:00:00Z", "--quiet"],
      project,
    );
    expect(built.exitCode, built.stderr).toBe(0);
    expect(await readFile(config, "utf8")).toBe(mine);
    expect(existsSync(join(project, "out/wrangler.jsonc"))).toBe(false);
  });

  it("adds its lines to an existing .gitignore, once", async () => {
    const project = join(root, "ignored");
    await mkdir(project);
    await writeFile(join(project, ".gitignore"), "node_modules\nout/");
    await runInProcess(["init", project], root);
    expect(await readFile(join(project, ".gitignore"), "utf8")).toBe(
      "node_modules\nout/\n# spi-static: wrangler's local state (wrangler dev)\n/.wrangler/\n# spi-static: the development API key (never commit it)\n/data/keys.dev.txt\n",
    );
  });

  it("refuses to overwrite anything, and then writes nothing at all", async () => {
    const project = join(root, "occupied");
    await runInProcess(["init", project], root);
    await writeFile(join(project, "data/provider.yaml"), "# mine\n");
    await rm(join(project, "schema"), { recursive: true });

    const again = await runInProcess(["init", project], root);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(`${join(project, "data/provider.yaml")} already exists`);
    expect(await readFile(join(project, "data/provider.yaml"), "utf8")).toBe("# mine\n");
    expect(await filesUnder(project)).toEqual(
      SCAFFOLD.filter((f) => f.startsWith(".") || f.startsWith("data/") || f === "wrangler.jsonc"),
    );
  });
});
