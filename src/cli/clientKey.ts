import { UsageError } from "../exit/spiStaticError.js";
import { formatProblem } from "../load/text/inputProblem.js";
import { parseApiKey } from "./optionParsers.js";

/**
 * The key a client command (`verify`, `import`) sends, from its `--keys-file`: the file's first
 * key, read as the build reads keys files (comments and blank lines skipped). The file is named
 * on the command line, so a missing, bad or empty one is a usage error (exit 2).
 */
export async function firstKeyOfFile(path: string): Promise<string> {
  const { parseKeysFile, readKeysFileText } = await import("../edge/apiKeys.js");
  const text = await readKeysFileText(path);
  const { keys, problems } = parseKeysFile(text, path);
  if (problems.length > 0) {
    throw new UsageError(problems.map(formatProblem).join("\nspi-static: "));
  }
  const [key] = keys;
  if (key === undefined) throw new UsageError(`${path} holds no key`);
  return key;
}

/** A key from the environment (SPI_VERIFY_KEY, SPI_IMPORT_KEY), checked as --key is; empty is unset, as in a shell. */
export function keyFromEnvironment(name: string, value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return parseApiKey(value);
  } catch (error) {
    throw new UsageError(`${name}: ${error instanceof Error ? error.message : error}`);
  }
}
