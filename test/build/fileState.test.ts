import { execFileSync } from "node:child_process";
import { copyFile, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  FINE_SETTLED_MS,
  recordedState,
  SETTLED_MS,
  seeFile,
  seeUnchanged,
  settleWindowMs,
} from "../../src/build/fileState.js";

const root = await mkdtemp(join(tmpdir(), "spi-file-state-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("the unchanged-file rule", () => {
  it("trusts a recorded state only once the file has settled", async () => {
    const path = join(root, "settling.xml");
    await writeFile(path, "<a/>\n");
    const seen = seeFile(path);
    expect(seen).toBeDefined();
    if (!seen) return;
    expect(recordedState(seen, Date.now())).toBe("");
    expect(recordedState(seen, Date.now() + 2 * SETTLED_MS)).toBe(seen.state);
  });

  it("waits a second's steps out only on a file system whose times are whole seconds", async () => {
    const path = join(root, "fine.xml");
    await writeFile(path, "<a/>\n");
    const seen = seeFile(path);
    if (!seen?.changedMs) throw new Error("not seen");
    // This machine's file systems keep nanoseconds: trusted once FINE_SETTLED_MS went by.
    expect(seen.settleMs).toBe(FINE_SETTLED_MS);
    expect(recordedState(seen, seen.changedMs + FINE_SETTLED_MS)).toBe("");
    expect(recordedState(seen, seen.changedMs + FINE_SETTLED_MS + 1)).toBe(seen.state);
    // FAT (2 s steps) and HFS+ (1 s) give whole seconds: the coarse window.
    const whole = 1_764_000_000n * 1_000_000_000n;
    expect(settleWindowMs({ mtimeNs: whole, ctimeNs: whole + 2_000_000_000n })).toBe(SETTLED_MS);
    expect(settleWindowMs({ mtimeNs: whole, ctimeNs: whole + 123_456n })).toBe(FINE_SETTLED_MS);
    // A record made without a window (an older one) keeps the coarse rule.
    const { settleMs: _, ...unknown } = seen;
    expect(recordedState(unknown, seen.changedMs + FINE_SETTLED_MS + 1)).toBe("");
  });

  it("finds an in-place edit with size and times restored, and a copy of the same bytes the same", async () => {
    const path = join(root, "published.xml");
    await writeFile(path, "<schedule>Early Talk</schedule>\n");
    const seen = seeFile(path);
    if (!seen) throw new Error("not seen");
    const recorded = {
      state: recordedState(seen, Date.now() + 2 * SETTLED_MS),
      digest: seen.digest,
    };
    expect(seeUnchanged(path, recorded)).toEqual(recorded);

    // Replaced by a copy of the same bytes (a cache restore): a new inode, hashed, the same file.
    await copyFile(path, `${path}.copy`);
    await rename(`${path}.copy`, path);
    const restored = seeUnchanged(path, recorded);
    expect(restored?.digest).toBe(seen.digest);
    expect(restored?.state).not.toBe(recorded.state);

    // Edited in place, same size, times put back to the nanosecond: the change time tells.
    const times = join(root, "times");
    await writeFile(times, "");
    execFileSync("touch", ["-r", path, times]);
    await writeFile(path, "<schedule>Earlx Talk</schedule>\n");
    execFileSync("touch", ["-r", times, path]);
    if (!restored) throw new Error("not seen");
    expect(
      seeUnchanged(path, {
        state: recordedState(restored, Date.now() + 2 * SETTLED_MS),
        digest: restored.digest,
      }),
    ).toBeUndefined();
  });
});
