import { readFile } from "node:fs/promises";
import { COMPATIBILITY_DATE } from "./edgeFiles.js";

/** The user's own wrangler config, at the project root beside out/ (never inside it). */
export const WRANGLER_CONFIG_PATH = "wrangler.jsonc";

const TEMPLATE = new URL("../../templates/wrangler.jsonc.tmpl", import.meta.url);

/** A Worker name (lowercase letters, digits, dashes, at most 63) derived from any label. */
export function workerNameOf(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return `spi-${slug}`.slice(0, 63).replace(/-$/, "");
}

/**
 * The wrangler.jsonc `spi-static init` writes: the worker and the assets from out/, so wrangler's
 * own state (.wrangler/, beside the config) stays outside the folder its asset watcher watches.
 */
export async function wranglerConfigText(projectName: string): Promise<string> {
  const values: Record<string, string> = {
    name: workerNameOf(projectName),
    compatibilityDate: COMPATIBILITY_DATE,
  };
  return (await readFile(TEMPLATE, "utf8")).replace(
    /\{\{(\w+)\}\}/g,
    (placeholder, name: string) => values[name] ?? placeholder,
  );
}
