import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { InputProblem } from "../load/text/inputProblem.js";

/**
 * Static asset files per Worker version that Cloudflare accepts, by Workers plan
 * (developers.cloudflare.com/workers/platform/limits/): past them `wrangler deploy` fails.
 */
export const ASSET_LIMITS = { free: 20_000, paid: 100_000 } as const;

/** The plan the deploy counts against (`build --asset-limit`), or `off`: the documents are not assets. */
export type AssetLimit = keyof typeof ASSET_LIMITS | "off";

/** From this share of the limit on, the build warns ahead: weeks of growth, not the night it fails. */
const WARN_FROM = 0.9;

/** The names `.assetsignore`'s lines keep out: a file or folder name, at any depth (all the build writes there). */
function ignoredNames(assetsIgnore: string): Set<string> {
  return new Set(
    assetsIgnore
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
}

/** What `wrangler deploy` uploads as assets: every file of the folder but those its `.assetsignore` names. */
export function deployedAssets(paths: readonly string[], assetsIgnore: string): string[] {
  const ignored = ignoredNames(assetsIgnore);
  return paths.filter((path) => !path.split("/").some((part) => ignored.has(part)));
}

/**
 * The files of a folder (relative paths, `/`-separated) and its `.assetsignore`, as the deploy
 * sees them. Ignored folders are not walked: the build's state (its input cache) costs nothing.
 */
export async function listDeployFolder(
  outDir: string,
): Promise<{ paths: string[]; assetsIgnore: string }> {
  const assetsIgnore = await readFile(join(outDir, ".assetsignore"), "utf8").catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    },
  );
  const ignored = ignoredNames(assetsIgnore);
  const paths: string[] = [];
  const walk = async (folder: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (ignored.has(entry.name)) continue;
      if (entry.isDirectory()) await walk(join(folder, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) paths.push(`${prefix}${entry.name}`);
    }
  };
  await walk(outDir, "");
  return { paths, assetsIgnore };
}

/**
 * A warning when `count` assets pass (or near) the plan's limit: the number, the limit, and
 * what to do. `folder` is where the count was taken (the build's --out).
 */
export function assetLimitProblem(
  count: number,
  limit: AssetLimit,
  folder: string,
): InputProblem | undefined {
  if (limit === "off") return undefined;
  const most = ASSET_LIMITS[limit];
  if (count < most * WARN_FROM) return undefined;
  const figure = (n: number) => n.toLocaleString("en-US");
  const where =
    `${folder} holds ${figure(count)} files that \`wrangler deploy\` uploads as static assets; ` +
    `the Workers ${limit} plan allows ${figure(most)} per Worker version`;
  const paid =
    limit === "free"
      ? ` (the paid plan allows ${figure(ASSET_LIMITS.paid)}: then build with --asset-limit paid)`
      : "";
  const remedy =
    `serve the documents from an R2 bucket instead${paid}, and build with --asset-limit off ` +
    `(docs/deploy.md, "Past the assets limit")`;
  const message =
    count > most
      ? `${where}: the deploy will fail. To go on, ${remedy}`
      : `${where}: ${figure(most - count)} more and the deploy fails. Before then, ${remedy}`;
  return { file: folder, line: 0, column: 0, field: "", severity: "warning", message };
}
