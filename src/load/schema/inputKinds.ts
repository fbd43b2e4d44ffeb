import { z } from "zod";
import { episodesFileSchema } from "./episodesSchema.js";
import { providerSchema } from "./providerSchema.js";
import { scheduleSchema } from "./scheduleSchema.js";
import { serviceSchema } from "./serviceSchema.js";

/**
 * Each kind of data file and the schema its YAML is validated against: one source of truth for
 * the TypeScript types, the validation at load time and the JSON Schema that editors use.
 * Checks that need more than one field (overlaps, references, time zones) live in the loader.
 */
export const INPUT_SCHEMAS = {
  provider: providerSchema,
  service: serviceSchema,
  schedule: scheduleSchema,
  episodes: episodesFileSchema,
} as const;
export type InputKind = keyof typeof INPUT_SCHEMAS;
export type InputOf<K extends InputKind> = z.infer<(typeof INPUT_SCHEMAS)[K]>;

/** A JSON Schema file for editors, generated from the zod schemas the loader checks with. */
interface JsonSchemaFile {
  /** The file name the data files' `# yaml-language-server: $schema=` comments point at. */
  name: string;
  text: string;
}

/** Draft 7: the newest draft the YAML language server (VS Code's YAML extension) fully supports. */
export function inputJsonSchemas(): JsonSchemaFile[] {
  return Object.entries(INPUT_SCHEMAS).map(([kind, schema]) => ({
    name: `${kind}.schema.json`,
    text: `${JSON.stringify(z.toJSONSchema(schema, { io: "input", target: "draft-07" }), null, 2)}\n`,
  }));
}
