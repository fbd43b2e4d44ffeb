import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { EXIT, type ExitCode } from "../exit/exitCodes.js";
import type { CommandIo } from "./commandIo.js";

export interface SchemaOptions {
  /** The folder to write provider/service/schedule/episodes.schema.json into. */
  out: string;
}

/** `spi-static schema`: the JSON Schemas editors check the YAML files with. */
export async function schemaCommand(options: SchemaOptions, io: CommandIo): Promise<ExitCode> {
  await mkdir(options.out, { recursive: true });
  const { inputJsonSchemas } = await import("../load/schema/inputKinds.js");
  for (const { name, text } of inputJsonSchemas()) {
    await writeFile(join(options.out, name), text);
    io.stdout(`spi-static: wrote ${join(options.out, name)}`);
  }
  return EXIT.ok;
}
