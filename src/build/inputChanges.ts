import type { BuildSources } from "./buildFingerprint.js";

/**
 * What changed between the sources of the last complete build and this one's (by name), so that
 * each document rendered again, each service laid out again and "not up to date" say which input
 * it was: a part of the program (the code, the runtime, a dependency), a data file, the data
 * folder or the keys (SPI_STATIC_DEBUG=plan and stamp).
 */
export interface InputChanges {
  /** The program's parts that changed: `code`, `runtime`, `@date-fns/tz 1.5.0 → 1.6.0`… */
  program: string[];
  /** The data files added, changed or removed, by their path in the data folder. */
  data: string[];
  dataDir: boolean;
  keys: boolean;
  /** No sources recorded (a first build, one with errors, a damaged stamp): nothing to compare. */
  unknown: boolean;
}

export function inputChanges(before: BuildSources | undefined, now: BuildSources): InputChanges {
  if (before === undefined) {
    return { program: [], data: [], dataDir: false, keys: false, unknown: true };
  }
  const changed = (a: Record<string, string>, b: Record<string, string>) =>
    [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((name) => a[name] !== b[name]);
  return {
    program: changed(before.program, now.program).map((part) =>
      /^(code|templates|runtime)$/.test(part)
        ? part
        : `${part} ${before.program[part] ?? "none"} → ${now.program[part] ?? "none"}`,
    ),
    data: changed(before.data, now.data).sort(),
    dataDir: before.dataDir !== now.dataDir,
    keys: before.keys !== now.keys,
    unknown: false,
  };
}

/**
 * The changes that concern a service's documents (or, without `service`, any), in one phrase;
 * undefined when none is found.
 */
export function describeChanges(changes: InputChanges, service?: string): string | undefined {
  if (changes.unknown) return "the last build recorded no sources to compare with";
  if (changes.program.length > 0) return `the program changed: ${changes.program.join(", ")}`;
  if (changes.dataDir) return "the data folder is another one";
  const files = changes.data.filter((path) => service === undefined || concerns(path, service));
  if (files.length > 0) {
    const named = files.slice(0, 5).join(", ");
    return `data ${files.length === 1 ? "file" : "files"} changed: ${named}${files.length > 5 ? ` and ${files.length - 5} more` : ""}`;
  }
  return changes.keys && service === undefined ? "the keys changed" : undefined;
}

/** The folders whose files are each one service's, named by its id (load/loadBroadcaster.ts). */
const SERVICE_FOLDERS = new Set(["services", "schedules", "episodes"]);

/**
 * Whether a data file may be one a service is made from: its own (services/<id>.yaml,
 * schedules/<id>.yaml, episodes/<id>/…) or one of no service's own (provider.yaml, a logo source).
 */
function concerns(path: string, service: string): boolean {
  const [folder = "", name = ""] = path.split("/");
  return !SERVICE_FOLDERS.has(folder) || name.replace(/\.ya?ml$/, "") === service;
}
