import { posix } from "node:path";
import { STATE_DIR } from "./stateFolder.js";

/**
 * Which files under out/ the build owns, and so may replace or delete: the state's `owned` part
 * (buildState.ts) lists the files of the last complete build; the journal lists every path a
 * later, unfinished build was about to create, recorded before the file appears, so a killed
 * build never leaves a file that no later build would recognise as its own.
 */

/** Control characters, and what a byte that is not UTF-8 decodes to: never in a path the build writes. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const UNPRINTABLE = /[\u0000-\u001f\u007f\ufffd]/;

/**
 * Segments of letters, digits, ".", "_" and "-" (every path the build writes): such a path is
 * normalized when no segment is "." or "..", so the state's thousands of paths are checked
 * without path.normalize (a third of reading the state at 100 services).
 */
const PLAIN = /^[\w.-]+(?:\/[\w.-]+)*$/;
const DOT_SEGMENT = /(?:^|\/)\.{1,2}(?:\/|$)/;

/** A relative path that stays inside out/ and outside the build's own bookkeeping. */
export function isSitePath(path: string): boolean {
  if (PLAIN.test(path) && !DOT_SEGMENT.test(path)) {
    return path !== STATE_DIR && !path.startsWith(`${STATE_DIR}/`);
  }
  return (
    path.length > 0 &&
    !posix.isAbsolute(path) &&
    posix.normalize(path) === path &&
    !path.startsWith("../") &&
    path !== ".." &&
    path !== "." &&
    !path.endsWith("/") &&
    !path.includes("\\") &&
    !UNPRINTABLE.test(path) &&
    path !== STATE_DIR &&
    !path.startsWith(`${STATE_DIR}/`)
  );
}
