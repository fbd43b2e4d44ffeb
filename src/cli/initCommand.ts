import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEV_KEYS_FILE } from "../edge/apiKeys.js";
import { WRANGLER_CONFIG_PATH, wranglerConfigText } from "../edge/wranglerConfig.js";
import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import type { CommandIo } from "./commandIo.js";

/** The scaffold shipped with the package: a provider, one service and a one-week grid. */
const TEMPLATE_DIR = fileURLToPath(new URL("../../templates/init", import.meta.url));

export interface InitOptions {
  /** The folder to create the project in. */
  dir: string;
}

/** `spi-static init`: a new project; exit 2, writing nothing, when any of its files exists. */
export async function initCommand({ dir }: InitOptions, io: CommandIo): Promise<ExitCode> {
  const { inputJsonSchemas } = await import("../load/schema/inputKinds.js");
  const files = [
    ...(await templateFiles()),
    { path: join("data", DEV_KEYS_FILE), text: devKeysFile() },
    { path: WRANGLER_CONFIG_PATH, text: await wranglerConfigText(basename(resolve(dir))) },
    ...inputJsonSchemas().map(({ name, text }) => ({ path: join("schema", name), text })),
  ];
  const existing = files.filter((file) => existsSync(join(dir, file.path)));
  if (existing.length > 0) {
    io.stderr(
      [
        ...existing.map((file) => `spi-static: ${join(dir, file.path)} already exists`),
        "spi-static: nothing was written; init never overwrites a file",
      ].join("\n"),
    );
    return EXIT.usage;
  }
  for (const file of files) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.text, { flag: "wx" });
  }
  await ignoreInGit(join(dir, ".gitignore"));
  const inDir = dir === "." ? "" : `cd ${dir} && `;
  io.stdout(
    `spi-static: created ${files.length} files and .gitignore in ${dir}; next: ${inDir}npx spi-static validate && npx spi-static build && npx spi-static dev`,
  );
  return EXIT.ok;
}

async function templateFiles(): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(TEMPLATE_DIR, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  return Promise.all(
    files.sort().map(async (file) => ({
      path: relative(TEMPLATE_DIR, file),
      text: await readFile(file, "utf8"),
    })),
  );
}

/**
 * A random key of this project's own, so the preview and verify work at once. It is git-ignored
 * and the build takes it only when no other keys are given, with a warning not to deploy it.
 */
function devKeysFile(): string {
  return `# The development API key of this project, made by \`spi-static init\`. \`spi-static build\` uses it
# when no keys are given (--keys-file, SPI_API_KEYS), so the preview and verify work at once:
#   npx spi-static verify http://127.0.0.1:8080 --keys-file data/${DEV_KEYS_FILE}
# Git-ignored; only its SHA-256 digest reaches out/. Never deploy with it (docs/edge-rules.md, "Keys").
dev-${randomBytes(16).toString("hex")}
`;
}

/** What a project must never commit: the built site, the development key, tools' own files. */
const IGNORED = [
  { pattern: "/out/", why: "the built site: made again by every build" },
  { pattern: "/.wrangler/", why: "wrangler's local state (wrangler dev)" },
  { pattern: `/data/${DEV_KEYS_FILE}`, why: "the development API key (never commit it)" },
  { pattern: "/node_modules/", why: "installed packages" },
];

/** Writes .gitignore, or adds the patterns an existing one lacks (it is never overwritten). */
async function ignoreInGit(path: string): Promise<void> {
  const existing = await readFile(path, "utf8").catch(() => undefined);
  const has = new Set(
    (existing ?? "").split(/\r?\n/).map((line) => line.trim().replace(/^\/|\/$/g, "")),
  );
  const missing = IGNORED.filter(({ pattern }) => !has.has(pattern.replace(/^\/|\/$/g, "")));
  if (missing.length === 0) return;
  const lines = missing.map(({ pattern, why }) => `# spi-static: ${why}\n${pattern}\n`).join("");
  const separator = existing === undefined || existing.endsWith("\n") ? "" : "\n";
  await appendFile(path, `${separator}${lines}`);
}
