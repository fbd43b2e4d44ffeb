import type { PublishProgress } from "../build/publishSite.js";

export interface ProgressLine {
  update(progress: PublishProgress): void;
  /** Clears the line, so the summary that follows starts on a clean one. */
  clear(): void;
}

const REFRESH_MS = 100;

/**
 * A single self-overwriting status line for long builds, on stderr. Only on a terminal: in cron
 * logs and pipes a build prints its summary and nothing else.
 */
export function progressLine(stream: NodeJS.WriteStream | undefined): ProgressLine | undefined {
  if (!stream?.isTTY) return undefined;
  let shownAt = 0;
  let shown = false;
  return {
    update({ rendered, written, unchanged }) {
      const now = Date.now();
      if (now - shownAt < REFRESH_MS) return;
      shownAt = now;
      shown = true;
      stream.write(
        `\r\x1b[Kspi-static: ${rendered} documents, ${written} written, ${unchanged} unchanged…`,
      );
    },
    clear() {
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
