import { execFileSync } from "node:child_process";

/**
 * Tests that spawn the CLI run the compiled dist/, so build it once, fresh, before any test, as
 * `npm run build` does: tsc, then the njs module lowered for the package (src/nginx).
 */
export default function compileCli() {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
    stdio: "inherit",
  });
  execFileSync(process.execPath, ["dist/nginx/buildLoweredModule.js"], { stdio: "inherit" });
}
