import { execFileSync } from "node:child_process";

/** Tests that spawn the CLI run the compiled dist/, so compile it once, fresh, before any test. */
export default function compileCli() {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
    stdio: "inherit",
  });
}
