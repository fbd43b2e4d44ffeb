import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { EXIT } from "./exitCodes.js";

/** The scaffold shipped with the package: a provider, one service and a one-week grid. */
const TEMPLATE_DIR = fileURLToPath(new URL("../../templates/init", import.meta.url));

export function registerInitCommand(program: Command) {
  program
    .command("init")
    .description(
      "start a new project: data/ with a provider, one service and a one-week grid, and schema/ for editors",
    )
    .argument("[dir]", "folder to create the project in", ".")
    .action(async (dir: string) => {
      const { inputJsonSchemas } = await import("../load/inputJsonSchemas.js");
      const files = [
        ...(await templateFiles()),
        ...inputJsonSchemas().map(({ name, text }) => ({ path: join("schema", name), text })),
      ];
      const existing = files.filter((file) => existsSync(join(dir, file.path)));
      if (existing.length > 0) {
        for (const file of existing) {
          console.error(`spi-static: ${join(dir, file.path)} already exists`);
        }
        console.error("spi-static: nothing was written; init never overwrites a file");
        process.exitCode = EXIT.usage;
        return;
      }
      for (const file of files) {
        const target = join(dir, file.path);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, file.text, { flag: "wx" });
      }
      const inDir = dir === "." ? "" : `cd ${dir} && `;
      console.log(
        `spi-static: created ${files.length} files in ${dir}; next: ${inDir}npx spi-static validate && npx spi-static build`,
      );
    });
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
