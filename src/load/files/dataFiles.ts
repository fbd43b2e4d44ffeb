import { basename, join } from "node:path";
import type { InputKind } from "../schema/inputKinds.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { DataFolder, UnreadableFile } from "./dataFolder.js";
import type { InputReader } from "./inputReader.js";

/** A data folder as the loaders read it: where it is, how paths are shown, and its reader. */
export interface DataFiles {
  dataDir: string;
  folder: DataFolder;
  inputs: InputReader;
  /** A path as messages show it. */
  display: (path: string) => string;
}

/** A data file's validated value, its problems put `into` the list they belong to. */
export async function readDataFile<K extends InputKind>(
  { inputs, display }: DataFiles,
  kind: K,
  path: string,
  into: InputProblem[],
) {
  const result = await inputs.read(kind, path);
  if ("unreadable" in result) {
    into.push(unreadableProblem(display(path), result.unreadable));
    return { file: undefined, input: undefined, digest: undefined };
  }
  for (const problem of result.problems) into.push(problem);
  return result;
}

/**
 * Every data file a load may read, for reading ahead: provider.yaml, services/*.yaml,
 * schedules/*.yaml and episodes/<id>/*.yaml. Only listed here; what is wrong with a folder or a
 * name is reported where the load reads it.
 */
export async function dataFilesIn(
  folder: DataFolder,
  dataDir: string,
): Promise<{ kind: InputKind; path: string }[]> {
  const yamlIn = async (dir: string) => {
    const listing = await folder.list(dir);
    const names = "names" in listing ? listing.names : [];
    return names.filter((name) => name.endsWith(".yaml")).map((name) => join(dir, name));
  };
  const episodesDir = join(dataDir, "episodes");
  const episodeFolders = await folder.list(episodesDir);
  const episodeFiles = await Promise.all(
    ("names" in episodeFolders ? episodeFolders.names : []).map((name) =>
      yamlIn(join(episodesDir, name)),
    ),
  );
  const listed = (kind: InputKind) => (path: string) => ({ kind, path });
  return [
    { kind: "provider", path: join(dataDir, "provider.yaml") },
    ...(await yamlIn(join(dataDir, "services"))).map(listed("service")),
    ...(await yamlIn(join(dataDir, "schedules"))).map(listed("schedule")),
    ...episodeFiles.flat().map(listed("episodes")),
  ];
}

/**
 * The `.yaml` files of a folder, and its `.yml` files (shown as `display` does), each reported
 * as an error rather than ignored: every file spi-static reads is named `.yaml` (provider.yaml,
 * schedules/<id>.yaml), so one spelling holds everywhere. Undefined, with a problem, when the
 * folder cannot be listed; a folder that does not exist has no files.
 */
export async function listYaml(
  { folder, display }: DataFiles,
  dir: string,
  problems: InputProblem[],
): Promise<{ files: string[]; misnamed: string[] } | undefined> {
  const listing = await folder.list(dir);
  if ("reason" in listing) {
    problems.push(atFileStart(display(dir), listing.reason));
    return undefined;
  }
  const names = "names" in listing ? listing.names : [];
  const misnamed = names.filter((name) => name.endsWith(".yml")).map((n) => display(join(dir, n)));
  for (const path of misnamed) {
    const renamed = basename(path).replace(/\.yml$/, ".yaml");
    problems.push(
      atFileStart(
        path,
        `is a .yml file: rename it to ${renamed} (spi-static reads only .yaml files)`,
      ),
    );
  }
  const files = names.filter((name) => name.endsWith(".yaml")).map((name) => join(dir, name));
  return { files, misnamed };
}

export function unreadableProblem(
  file: string,
  { line, column, message }: UnreadableFile,
): InputProblem {
  return { file, line, column, field: "", severity: "error", message };
}

export function atFileStart(file: string, message: string): InputProblem {
  return { file, line: 1, column: 1, field: "", severity: "error", message };
}
