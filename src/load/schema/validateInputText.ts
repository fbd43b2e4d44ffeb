import type { InputProblem } from "../text/inputProblem.js";
import { parseYamlText, type YamlFile } from "../text/readYamlFile.js";
import { INPUT_SCHEMAS, type InputKind, type InputOf } from "./inputKinds.js";
import { parseInput } from "./parseInput.js";

/** A data file's text, parsed and checked against its kind's schema. */
export interface ValidatedText<K extends InputKind> {
  file: YamlFile;
  /** The validated value; undefined when the file has errors (then in `problems`). */
  input: InputOf<K> | undefined;
  problems: InputProblem[];
}

/**
 * The work of reading one data file on its own, apart from every other file: the same on the main
 * thread and in a parse worker (parseWorker.ts), and what the input cache keeps the result of.
 */
export function validateInputText<K extends InputKind>(
  kind: K,
  file: string,
  text: string,
): ValidatedText<K> {
  const yamlFile = parseYamlText(file, text);
  const problems: InputProblem[] = [];
  const input = parseInput(INPUT_SCHEMAS[kind], yamlFile, problems) as InputOf<K> | undefined;
  return { file: yamlFile, input, problems };
}
