import { afterEach, describe, expect, it, vi } from "vitest";
import { progressLine } from "../../src/cli/progressLine.js";

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  const stream = { isTTY, write: (text: string) => written.push(text) };
  return { stream: stream as unknown as NodeJS.WriteStream, written };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("progressLine", () => {
  it("stays silent when the stream is not a terminal (cron, pipes, CI logs)", () => {
    expect(progressLine(fakeStream(false).stream)).toBeUndefined();
  });

  it("rewrites one line on a terminal, at most ten times a second, and clears it", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T03:00:00Z") });
    const { stream, written } = fakeStream(true);
    const line = progressLine(stream);
    line?.update({ rendered: 16, written: 16, unchanged: 0, reused: 0 });
    line?.update({ rendered: 32, written: 20, unchanged: 12, reused: 0 });
    vi.advanceTimersByTime(150);
    line?.update({ rendered: 48, written: 20, unchanged: 28, reused: 0 });
    line?.clear();
    expect(written).toEqual([
      "\r\x1b[Kspi-static: 16 documents, 16 written, 0 unchanged…",
      "\r\x1b[Kspi-static: 48 documents, 20 written, 28 unchanged…",
      "\r\x1b[K",
    ]);
  });

  it("clears nothing when it never showed anything", () => {
    const { stream, written } = fakeStream(true);
    progressLine(stream)?.clear();
    expect(written).toEqual([]);
  });
});
