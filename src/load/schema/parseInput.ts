import { z } from "zod";
import { findNonXmlText } from "../formats/findNonXmlText.js";
import { didYouMean } from "../text/closestName.js";
import { type InputProblem, quoteValue } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";

/**
 * Checks a YAML file's value against its schema. Every issue becomes a problem at its spot in
 * the file, worded for someone editing YAML rather than for a developer reading zod; a field
 * gets one problem, the first, so a single slip does not produce a cascade.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  file: YamlFile,
  problems: InputProblem[],
): z.infer<T> | undefined {
  if (file.syntaxProblems.length > 0) {
    for (const problem of file.syntaxProblems) problems.push(problem);
    return undefined;
  }
  const nonXmlText = findNonXmlText(file.value);
  for (const { path, codePoint } of nonXmlText) {
    problems.push(
      file.error(path, `contains ${codePoint}, a character XML cannot carry; remove it`),
    );
  }
  const reported = new Set<string>();
  const protoKeys = protoKeyPaths(file.value);
  for (const path of protoKeys) {
    const problem: InputProblem = {
      ...file.locateKey(path),
      severity: "error",
      message: "is not a known field",
    };
    reported.add(problem.field);
    problems.push(problem);
  }
  const result = schema.safeParse(file.value ?? {}, { error: describeIssue });
  if (result.success)
    return nonXmlText.length > 0 || protoKeys.length > 0 ? undefined : result.data;
  for (const issue of result.error.issues) {
    for (const problem of toProblems(schema, file, issue)) {
      if (reported.has(problem.field)) continue;
      reported.add(problem.field);
      problems.push(problem);
    }
  }
  return undefined;
}

/** Fields that exist, but not where they were written: said instead of a guess. */
const FIELDS_ELSEWHERE: Record<string, string> = {
  terrestrialEventLocator:
    " here; a locator names one broadcast event, so it is given per airing, on an episode",
};

/**
 * Where a mapping has a key `__proto__` (`yaml` keeps it as an own key): zod leaves it out of a
 * record without a word, so a show of that name would vanish, and nothing may be named so.
 */
function protoKeyPaths(value: unknown): PropertyKey[][] {
  const found: PropertyKey[][] = [];
  // One path, grown and shrunk on the way, as in findNonXmlText: copied only for a finding.
  const path: PropertyKey[] = [];
  const visit = (node: unknown) => {
    if (node === null || typeof node !== "object") return;
    for (const [key, item] of Array.isArray(node) ? node.entries() : Object.entries(node)) {
      path.push(key);
      if (key === "__proto__") found.push([...path]);
      else visit(item);
      path.pop();
    }
  };
  visit(value);
  return found;
}

/** Own entries only: a key named `__proto__` or `constructor` must not find Object's. */
function fieldElsewhere(key: string): string | undefined {
  return Object.hasOwn(FIELDS_ELSEWHERE, key) ? FIELDS_ELSEWHERE[key] : undefined;
}

function toProblems(schema: z.ZodType, file: YamlFile, issue: z.core.$ZodIssue): InputProblem[] {
  const path = issue.path as PropertyKey[];
  switch (issue.code) {
    case "unrecognized_keys": {
      const known = knownKeys(schema, path);
      return issue.keys.map((key) => ({
        ...file.locateKey([...path, key]),
        severity: "error",
        message: `is not a known field${fieldElsewhere(key) ?? (didYouMean(key, known) || listKnown(known))}`,
      }));
    }
    case "invalid_key": {
      const reason = issue.issues[0]?.message ?? "is not a valid key";
      return [
        {
          ...file.locateKey(path),
          severity: "error",
          message: `${quoteValue(String(path.at(-1)))} ${reason}`,
        },
      ];
    }
    case "invalid_union": {
      // The branch for the kind of value given (text or a list) says what is wrong inside it.
      const meant = issue.errors.find(
        (branch) =>
          !branch.some((inner) => inner.code === "invalid_type" && inner.path.length === 0),
      );
      if (!meant) return [file.error(path, issue.message)];
      return meant.flatMap((inner) =>
        toProblems(schema, file, { ...inner, path: [...path, ...inner.path] } as z.core.$ZodIssue),
      );
    }
    case "invalid_format": {
      const value = valueAt(file.value, path);
      const shown = typeof value === "string" ? `${quoteValue(value)} ` : "";
      return [file.error(path, `${shown}${issue.message}`)];
    }
    default:
      return [file.error(path, issue.message)];
  }
}

function listKnown(known: string[]): string {
  return known.length > 0 && known.length <= 6 ? ` (expected ${known.join(", ")})` : "";
}

/** zod's error map for our inputs; messages a schema gives itself take precedence over it. */
function describeIssue(issue: z.core.$ZodRawIssue): string | undefined {
  const input: unknown = issue.input;
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return "is required";
      return `expected ${typeNames[issue.expected] ?? issue.expected}, got ${describeValue(input)}`;
    case "too_big":
      return `${describeSize(input)}; at most ${issue.maximum} ${unit(issue.origin)} allowed`;
    case "too_small":
      if (issue.origin === "string" && issue.minimum === 1) return "is empty";
      if (issue.origin === "array" && issue.minimum === 1)
        return "is empty; give at least one entry";
      return `${describeSize(input)}; at least ${issue.minimum} ${unit(issue.origin)} needed`;
    case "invalid_value": {
      const allowed = issue.values.map(String);
      const hint = typeof input === "string" ? didYouMean(input, allowed) : "";
      return `${describeValue(input)} is not one of ${allowed.join(", ")}${hint}`;
    }
    default:
      return undefined;
  }
}

const typeNames: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a mapping (key: value)",
  record: "a mapping (key: value)",
  array: "a list",
};

function describeValue(value: unknown): string {
  if (value === null) return "nothing";
  if (typeof value === "string") return quoteValue(value);
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "number") return `the number ${value}`;
  return String(value);
}

function describeSize(value: unknown): string {
  if (typeof value === "string") return `is ${Array.from(value).length} characters long`;
  if (Array.isArray(value)) return `has ${value.length} entries`;
  return `is ${String(value)}`;
}

function unit(origin: string): string {
  if (origin === "string") return "characters are";
  if (origin === "array") return "entries are";
  return "is";
}

/** The field names an object at `path` allows, for "did you mean" hints. */
function knownKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((object) => Object.keys(object.shape)))];
}

function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodObject[] {
  if (schema instanceof z.ZodOptional) return objectsAt(schema.unwrap() as z.ZodType, path);
  if (schema instanceof z.ZodUnion) {
    return (schema.options as z.ZodType[]).flatMap((option) => objectsAt(option, path));
  }
  const [head, ...rest] = path;
  if (head === undefined) return schema instanceof z.ZodObject ? [schema] : [];
  if (schema instanceof z.ZodObject) {
    const child = (schema.shape as Record<string, z.ZodType>)[String(head)];
    return child ? objectsAt(child, rest) : [];
  }
  if (schema instanceof z.ZodArray) return objectsAt(schema.element as z.ZodType, rest);
  if (schema instanceof z.ZodRecord) return objectsAt(schema.valueType as z.ZodType, rest);
  return [];
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}
