import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}

const workflow = parse(await readFile("templates/github-workflow-nightly.yml", "utf8")) as {
  jobs: { publish: { steps: Step[] } };
};
const steps = workflow.jobs.publish.steps;

/** Runs a step's script as Actions does (bash -e), with the secrets as given. */
function runStep(step: Step, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    execFile(
      "bash",
      ["-e", "-o", "pipefail", "-c", step.run ?? ""],
      { env: { PATH: process.env.PATH ?? "", ...env } },
      (error, stdout, stderr) =>
        done({ code: error ? Number(error.code) : 0, out: stdout + stderr }),
    );
  });
}

describe("the nightly GitHub workflow template", () => {
  it("runs on a supported Node LTS", () => {
    const setup = steps.find((step) => step.uses?.startsWith("actions/setup-node"));
    expect([22, 24]).toContain(setup?.with?.["node-version"]);
  });

  it("stops before building or deploying when a keys secret is unset", async () => {
    const check = steps.findIndex((step) => step.name === "Check the secrets");
    const build = steps.findIndex((step) => step.name === "Build");
    const deploy = steps.findIndex((step) => step.name?.startsWith("Deploy"));
    expect(check).toBeGreaterThanOrEqual(0);
    expect(check).toBeLessThan(build);
    expect(build).toBeLessThan(deploy);
    const step = steps[check] as Step;

    const unset = await runStep(step, { SPI_API_KEYS: "", SPI_VERIFY_KEY: "" });
    expect(unset.code).not.toBe(0);
    expect(unset.out).toContain("not set: SPI_API_KEYS SPI_VERIFY_KEY");
    const oneUnset = await runStep(step, { SPI_API_KEYS: "k".repeat(20), SPI_VERIFY_KEY: "" });
    expect(oneUnset.code).not.toBe(0);
    const set = { SPI_API_KEYS: "k".repeat(20), SPI_VERIFY_KEY: "k".repeat(20) };
    expect((await runStep(step, set)).code).toBe(0);
  });
});
