import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** `./data` when the working folder has one, otherwise the example broadcaster shipped with the package. */
export function defaultDataDir(): string {
  if (existsSync("data/provider.yaml")) return "data";
  return fileURLToPath(new URL("../../data", import.meta.url));
}
