import { printable } from "../exit/printableText.js";

/**
 * The debug channel: `SPI_STATIC_DEBUG=load,stamp,render` (or `all`) makes the optimisations
 * observable on stderr — why a fast path gave up, why the up-to-date check rebuilt, what was
 * cached. Off by default; output (out/ and stdout) never depends on it.
 */
export const DEBUG_TOPICS = [
  "load",
  "stamp",
  "schedule",
  "plan",
  "render",
  "publish",
  "memory",
  "logos",
  "timing",
] as const;
export type DebugTopic = (typeof DEBUG_TOPICS)[number];

let parsed: { setting: string | undefined; topics: ReadonlySet<string> } = {
  setting: undefined,
  topics: new Set(),
};

function enabledTopics(): ReadonlySet<string> {
  const setting = process.env.SPI_STATIC_DEBUG;
  if (parsed.setting !== setting) {
    const named = (setting ?? "").split(",").map((topic) => topic.trim());
    parsed = { setting, topics: new Set(named.includes("all") ? DEBUG_TOPICS : named) };
  }
  return parsed.topics;
}

export function debugging(topic: DebugTopic): boolean {
  return enabledTopics().has(topic);
}

/**
 * One line on stderr when `topic` is on; `message` is made only then (and may quote file names
 * and data, so its control characters are escaped as everywhere else).
 */
export function debug(topic: DebugTopic, message: () => string): void {
  if (debugging(topic))
    process.stderr.write(`spi-static debug ${topic}: ${printable(message())}\n`);
}
