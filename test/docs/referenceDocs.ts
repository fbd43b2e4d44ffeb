import type { Argument, Command, Option } from "commander";
import { commandLine } from "../../src/cli/commandLine.js";
import { inputJsonSchemas } from "../../src/load/schema/inputKinds.js";

/**
 * The parts of docs/ made from the code itself, so they cannot drift from it: the data fields
 * from the JSON Schemas (made from the zod schemas the loader checks with) and the commands'
 * options from the commander definitions. Each lives in its document between two markers;
 * test/docs/referenceDocs.test.ts fails when one is stale, `npm run docs:update` rewrites it.
 */
export interface GeneratedSection {
  /** The document, relative to the repository. */
  file: string;
  /** The marker's name: `<!-- generated: name … -->`. */
  name: string;
  text: string;
}

export function generatedSections(): GeneratedSection[] {
  return [
    { file: "docs/data-reference.md", name: "data-fields", text: dataFieldsReference() },
    { file: "docs/commands.md", name: "command-options", text: commandOptionsReference() },
  ];
}

const BEGIN = (name: string) =>
  `<!-- generated: ${name} (from the code by npm run docs:update; edit the code, not this) -->`;
const END = (name: string) => `<!-- end of generated: ${name} -->`;

/** `document` with the section between its markers replaced; undefined when a marker is missing. */
export function withSection(document: string, section: GeneratedSection): string | undefined {
  const begin = document.indexOf(BEGIN(section.name));
  const end = document.indexOf(END(section.name));
  if (begin < 0 || end < begin) return undefined;
  const head = document.slice(0, begin + BEGIN(section.name).length);
  return `${head}\n\n${section.text.trim()}\n\n${document.slice(end)}`;
}

// ---- data fields, from the JSON Schemas -------------------------------------------------------

interface JsonSchema {
  type?: string;
  description?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** One schema for every item, or (a tuple, draft 7) one per position. */
  items?: JsonSchema | JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  default?: unknown;
}

interface FieldRow {
  path: string;
  type: string;
  required: boolean;
  description: string;
}

/** Mappings already listed, by their schema: a repeat names the first instead of its fields. */
type SeenMappings = Map<string, string>;

function dataFieldsReference(): string {
  const seen: SeenMappings = new Map();
  const sections = inputJsonSchemas().map(({ name, text }) => {
    const schema = JSON.parse(text) as JsonSchema;
    const kind = name.replace(/\.schema\.json$/, "");
    const rows: FieldRow[] = [];
    collectFields(schema, "", rows, { seen, kind });
    const table = [
      "| field | type | required | meaning |",
      "| --- | --- | --- | --- |",
      ...rows.map(
        (row) =>
          `| \`${row.path}\` | ${cell(row.type)} | ${row.required ? "yes" : ""} | ${cell(row.description)} |`,
      ),
    ];
    return [`### ${kind}`, "", cell(schema.description ?? ""), "", ...table].join("\n");
  });
  return sections.join("\n\n");
}

interface Walk {
  seen: SeenMappings;
  /** The file kind being listed (provider, service, …). */
  kind: string;
}

function collectFields(schema: JsonSchema, path: string, rows: FieldRow[], walk: Walk) {
  for (const [key, field] of Object.entries(schema.properties ?? {})) {
    const fieldPath = path ? `${path}.${key}` : key;
    const row: FieldRow = {
      path: fieldPath,
      type: typeOf(field),
      required: schema.required?.includes(key) ?? false,
      description: field.description ?? itemSchema(field)?.description ?? "",
    };
    rows.push(row);
    const first = firstListing(field, fieldPath, walk);
    if (first) row.description = `${row.description} Fields as ${first}.`.trim();
    else collectNested(field, fieldPath, rows, walk);
  }
  if (typeof schema.additionalProperties === "object") {
    const entry = schema.additionalProperties;
    const entryPath = `${path}.<${entryName(path)}>`;
    if (entry.properties) collectFields(entry, entryPath, rows, walk);
    else collectNested(entry, entryPath, rows, walk);
  }
}

/**
 * Where a mapping (or list of mappings) of the same shape was listed already, if it was: the
 * names, descriptions, links and translations that recur everywhere are listed once.
 */
function firstListing(field: JsonSchema, path: string, walk: Walk): string | undefined {
  const mapping = field.properties ? field : itemSchema(field);
  const listsFields =
    Object.keys(mapping?.properties ?? {}).length >= 2 ||
    typeof mapping?.additionalProperties === "object";
  if (!mapping || !listsFields) return undefined;
  const { description: _, ...shape } = mapping;
  const key = JSON.stringify(shape);
  const first = walk.seen.get(key);
  if (first !== undefined) return first;
  walk.seen.set(key, `\`${path}\` in ${walk.kind}`);
  return undefined;
}

/** What is inside a field: the fields of its mapping, its list's items or its union's branches. */
function collectNested(field: JsonSchema, path: string, rows: FieldRow[], walk: Walk) {
  if (field.properties || typeof field.additionalProperties === "object") {
    collectFields(field, path, rows, walk);
  }
  const items = itemSchema(field);
  if (items) collectNested(items, `${path}[]`, rows, walk);
  for (const branch of field.anyOf ?? []) collectNested(branch, path, rows, walk);
}

/** The schema of every item of a list (not of a tuple, whose positions differ). */
function itemSchema(field: JsonSchema): JsonSchema | undefined {
  return Array.isArray(field.items) ? undefined : field.items;
}

/** The name a mapping's keys stand for, from the mapping's own name. */
function entryName(path: string): string {
  const last = path.split(".").at(-1) ?? "";
  if (last === "translations") return "language";
  if (last === "shows") return "show id";
  if (last === "serviceGroups") return "group id";
  return "name";
}

function typeOf(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(", or ");
  if (schema.enum) return `one of ${schema.enum.map((value) => `\`${String(value)}\``).join(", ")}`;
  if (schema.const !== undefined) return `\`${String(schema.const)}\``;
  switch (schema.type) {
    case "string":
      return `text${bounds(schema.minLength, schema.maxLength, "characters")}`;
    case "integer":
    case "number": {
      const word = schema.type === "integer" ? "whole number" : "number";
      const minimum = schema.minimum ?? schema.exclusiveMinimum;
      return `${word}${range(minimum, schema.maximum)}`;
    }
    case "boolean":
      return "true or false";
    case "array": {
      if (Array.isArray(schema.items)) return `[${schema.items.map(typeOf).join(", ")}]`;
      const items = schema.items ? typeOf(schema.items) : "values";
      return `list of ${items}${bounds(schema.minItems, schema.maxItems, "entries")}`;
    }
    case "object":
      return "mapping";
    default:
      return "value";
  }
}

function bounds(min: number | undefined, max: number | undefined, unit: string): string {
  const suffix = unit ? ` ${unit}` : "";
  if (min !== undefined && min === max) return ` (${min}${suffix})`;
  if (min !== undefined && min > 1 && max !== undefined) return ` (${min}–${max}${suffix})`;
  if (max !== undefined) return ` (at most ${max}${suffix})`;
  if (min !== undefined && (min > 1 || unit === "")) return ` (at least ${min}${suffix})`;
  return "";
}

function range(min: number | undefined, given: number | undefined): string {
  // zod's int() is bounded by the safe integers: no bound a reader needs.
  const max = given === Number.MAX_SAFE_INTEGER ? undefined : given;
  if (min !== undefined && max !== undefined) return ` (${min} to ${max})`;
  if (max !== undefined) return ` (at most ${max})`;
  if (min !== undefined) return ` (at least ${min})`;
  return "";
}

/** Text that stays inside one cell of a Markdown table. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

// ---- commands and options, from commander ------------------------------------------------------

function commandOptionsReference(): string {
  const program = commandLine(
    { env: {}, stdout: () => {}, stderr: () => {}, stopSignal: () => new AbortController().signal },
    async () => {},
  );
  return program.commands.map(commandReference).join("\n\n");
}

function commandReference(command: Command): string {
  const name = command.name();
  const lines = [`### ${name}`, "", `\`spi-static ${name} ${command.usage()}\``, ""];
  lines.push(`${capitalised(command.description())}.`, "");
  const argumentsList = command.registeredArguments;
  if (argumentsList.length > 0) {
    lines.push("| argument | meaning | default |", "| --- | --- | --- |");
    for (const argument of argumentsList) lines.push(argumentRow(argument));
    lines.push("");
  }
  if (command.options.length > 0) {
    lines.push("| option | meaning | default |", "| --- | --- | --- |");
    for (const option of command.options) lines.push(optionRow(option));
  } else {
    lines.push("No options but `--help`.");
  }
  const more = helpTextAfter(command);
  if (more) lines.push("", more);
  return lines.join("\n").trimEnd();
}

/** What `--help` prints after the options (addHelpText "after"), as a paragraph. */
function helpTextAfter(command: Command): string {
  let text = "";
  // A Command is an EventEmitter (addHelpText listens for this event), which its types omit.
  const events = command as unknown as NodeJS.EventEmitter;
  events.emit("afterHelp", { error: false, command, write: (part: string) => (text += part) });
  return text.trim().replace(/\s*\n\s*/g, " ");
}

function argumentRow(argument: Argument): string {
  const shown = `${argument.required ? "<" : "["}${argument.name()}${argument.variadic ? "..." : ""}${argument.required ? ">" : "]"}`;
  return `| \`${shown}\` | ${cell(argument.description)} | ${defaultOf(argument.defaultValue, argument.required)} |`;
}

function optionRow(option: Option): string {
  const required = option.mandatory ? " (required)" : "";
  return `| \`${option.flags}\` | ${cell(option.description)}${required} | ${defaultOf(option.defaultValue, false)} |`;
}

function defaultOf(value: unknown, required: boolean): string {
  if (required || value === undefined) return "";
  return `\`${String(value)}\``;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
