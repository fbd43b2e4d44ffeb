import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ASSET_LIMITS,
  assetLimitProblem,
  deployedAssets,
  listDeployFolder,
} from "../../src/edge/assetLimit.js";
import { runInProcess } from "../cli/runInProcess.js";

const IGNORE = "_worker.js\n_routes.json\n.assetsignore\n_spi-static\n.wrangler\n";

describe("what wrangler deploy uploads", () => {
  it("is every file but those .assetsignore names, as a file or a folder at any depth", () => {
    const paths = [
      "_worker.js",
      ".assetsignore",
      "_spi-static/state.json",
      "_spi-static/input-cache/a.bin",
      "radiodns/spi/3.1/SI.xml",
      "_keyed/radiodns/spi/3.1/SI.xml",
      "logos/services/pop/32x32-0123456789abcdef.png",
      "stray/_spi-static/x",
      "notes.txt",
    ];
    expect(deployedAssets(paths, IGNORE)).toEqual([
      "radiodns/spi/3.1/SI.xml",
      "_keyed/radiodns/spi/3.1/SI.xml",
      "logos/services/pop/32x32-0123456789abcdef.png",
      "notes.txt",
    ]);
  });

  it("is every file when there is no .assetsignore", () => {
    expect(deployedAssets(["_worker.js", "a.xml"], "")).toEqual(["_worker.js", "a.xml"]);
  });
});

describe("the asset limit warning", () => {
  it("says nothing well below the plan's limit, or when the documents are not assets", () => {
    expect(assetLimitProblem(17_999, "free", "out")).toBeUndefined();
    expect(assetLimitProblem(25_000, "paid", "out")).toBeUndefined();
    expect(assetLimitProblem(89_999, "paid", "out")).toBeUndefined();
    expect(assetLimitProblem(250_000, "off", "out")).toBeUndefined();
  });

  it("warns ahead from 90 % of the limit, with the number left", () => {
    const near = assetLimitProblem(19_000, "free", "out");
    expect(near?.severity).toBe("warning");
    expect(near?.message).toContain("out holds 19,000 files");
    expect(near?.message).toContain("the Workers free plan allows 20,000 per Worker version");
    expect(near?.message).toContain("1,000 more and the deploy fails");
    expect(near?.message).toContain("--asset-limit paid");
    expect(assetLimitProblem(20_000, "free", "out")?.message).toContain("0 more");
  });

  it("says the deploy will fail past the limit, and what to do, for either plan", () => {
    const free = assetLimitProblem(20_001, "free", "out")?.message;
    expect(free).toContain("20,001 files");
    expect(free).toContain("the deploy will fail");
    expect(free).toContain("the paid plan allows 100,000");
    expect(free).toContain("R2 bucket");
    const paid = assetLimitProblem(ASSET_LIMITS.paid + 1, "paid", "out")?.message;
    expect(paid).toContain("100,001 files");
    expect(paid).toContain("the Workers paid plan allows 100,000");
    expect(paid).toContain("the deploy will fail");
    expect(paid).not.toContain("--asset-limit paid");
    expect(paid).toContain("--asset-limit off");
  });
});

describe("build on an output folder past 20,000 files", () => {
  it("counts the real folder, warns with the number and the limit, and is quiet with --asset-limit paid", async () => {
    const outDir = await mkdtemp(join(tmpdir(), "spi-asset-limit-"));
    // Last year's documents of 1,200 services an earlier setup left: foreign to this build,
    // and uploaded by wrangler all the same.
    for (let s = 0; s < 1_200; s++) {
      const folder = join(outDir, "radiodns/spi/3.1/id/old.example", `s${s}`);
      await mkdir(folder, { recursive: true });
      await Promise.all(
        Array.from({ length: 17 }, (_, d) => writeFile(join(folder, `202501${10 + d}_PI.xml`), "")),
      );
    }
    const build = (...extra: string[]) =>
      runInProcess(
        ["build", "--data", "data", "--out", outDir, "--now", "2026-11-23T10:00:00Z", ...extra],
        process.cwd(),
      );
    const warned = await build("--json");
    expect(warned.exitCode).toBe(0);
    const summary = JSON.parse(warned.stdout);
    const listed = await listDeployFolder(outDir);
    const expected = deployedAssets(listed.paths, listed.assetsIgnore).length;
    // The 20,400 foreign files and the documents and logos; not the three edge files or the state.
    expect(expected).toBe(20_400 + summary.written - 3);
    expect(summary.assetFiles).toBe(expected);
    const warnings = summary.problems.filter((p: { message: string }) =>
      p.message.includes("static assets"),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0].severity).toBe("warning");
    expect(warnings[0].message).toContain(`${expected.toLocaleString("en-US")} files`);
    expect(warnings[0].message).toContain("the deploy will fail");

    const printed = await build();
    expect(printed.stderr).toContain("the Workers free plan allows 20,000 per Worker version");

    const paid = await build("--asset-limit", "paid");
    expect(paid.exitCode).toBe(0);
    expect(paid.stderr).not.toContain("static assets");
  }, 60_000);
});
