import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "./runProcess.js";

const usageReporter = fileURLToPath(new URL("reportResourceUsage.js", import.meta.url));

/**
 * `spi-static verify --quiet` against the preview of `outDir` at `now`, as a nightly runs it:
 * its peak RSS (issue 36's target: at most 200 MB at 3,000 services), its time, and whether
 * every check passed.
 */
export async function measureVerify(cli: string, outDir: string, now: string, key: string) {
  const preview = spawn(
    process.execPath,
    [cli, "serve", "--out", outDir, "--port", "0", "--now", now],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const usageDir = await mkdtemp(join(tmpdir(), "spi-bench-verify-"));
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let seen = "";
      preview.stdout.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        const match = / at (http:\/\/127\.0\.0\.1:\d+) /.exec(seen);
        if (match?.[1]) resolve(match[1]);
      });
      preview.once("exit", (code) => reject(new Error(`serve exited (${code}): ${seen}`)));
    });
    const usageFile = join(usageDir, "usage.json");
    const started = performance.now();
    const run = await runProcess(
      process.execPath,
      ["--import", usageReporter, cli, "verify", origin, "--key", key, "--now", now, "--quiet"],
      { SPI_BENCH_USAGE_FILE: usageFile },
    );
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const usage = JSON.parse(await readFile(usageFile, "utf8")) as { maxRssKb: number };
    return {
      peakRssMb: Math.round(usage.maxRssKb / 1024),
      seconds,
      ok: run.code === 0,
      failed: run.stderr.trim(),
    };
  } finally {
    preview.kill();
    await rm(usageDir, { recursive: true, force: true });
  }
}
