import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";

export function registerSchemaCommand(program: Command) {
  program
    .command("schema")
    .description(
      "write the JSON Schemas of provider.yaml, services/*.yaml and schedules/*.yaml, for editors",
    )
    .option("--out <dir>", "folder to write provider/service/schedule.schema.json into", "schema")
    .action(async (options: { out: string }) => {
      await mkdir(options.out, { recursive: true });
      const { inputJsonSchemas } = await import("../load/inputJsonSchemas.js");
      for (const { name, text } of inputJsonSchemas()) {
        await writeFile(join(options.out, name), text);
        console.log(`spi-static: wrote ${join(options.out, name)}`);
      }
    });
}
