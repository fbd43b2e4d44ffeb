import { z } from "zod";
import {
  episodesFileSchema,
  providerSchema,
  scheduleSchema,
  serviceSchema,
} from "./inputSchema.js";

/** A JSON Schema file for editors, generated from the zod schemas the loader checks with. */
export interface JsonSchemaFile {
  /** The file name the data files' `# yaml-language-server: $schema=` comments point at. */
  name: string;
  text: string;
}

/** Draft 7: the newest draft the YAML language server (VS Code's YAML extension) fully supports. */
export function inputJsonSchemas(): JsonSchemaFile[] {
  const files = {
    provider: providerSchema,
    service: serviceSchema,
    schedule: scheduleSchema,
    episodes: episodesFileSchema,
  };
  return Object.entries(files).map(([kind, schema]) => ({
    name: `${kind}.schema.json`,
    text: `${JSON.stringify(z.toJSONSchema(schema, { io: "input", target: "draft-07" }), null, 2)}\n`,
  }));
}
