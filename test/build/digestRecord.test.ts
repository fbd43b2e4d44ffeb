import { mkdtemp, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commitBuildState, readBuildState, STATE_PATH } from "../../src/build/buildState.js";
import { openDigestRecord as openRecord } from "../../src/build/digestRecord.js";
import { SETTLED_MS } from "../../src/build/fileState.js";

const root = await mkdtemp(join(tmpdir(), "spi-digests-"));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The record as a build opens it, from the state it read; `commit` writes that state. */
function openDigestRecord(out: string, startedAt: number) {
  const state = readBuildState(out);
  const record = openRecord(state, startedAt);
  return {
    ...record,
    commit() {
      record.commit();
      commitBuildState(state);
    },
  };
}

const [DIGEST_1, DIGEST_2, DIGEST_3] = ["1", "2", "3"].map((digit) => digit.repeat(64)) as [
  string,
  string,
  string,
];

/** A build that starts this long after the file was written sees it as settled. */
const LATER = Date.now() + 10 * SETTLED_MS;

describe("the digest record", () => {
  it("knows a settled file's digest on the next build, and forgets it once the file is written", async () => {
    const out = join(root, "out");
    const file = join(root, "schedule.yaml");
    // Whole seconds, so a time set again is the same to the nanosecond.
    const written = new Date("2026-11-20T10:00:00Z");
    await writeFile(file, "shows: {}\n");
    await utimes(file, written, written);
    const before = await stat(file, { bigint: true });

    const first = openDigestRecord(out, LATER);
    expect(first.find(before)).toBeUndefined();
    first.note(before, DIGEST_1);
    first.commit();
    expect(openDigestRecord(out, LATER).find(before)).toBe(DIGEST_1);

    // The same size, the modification time set back: the change time still tells.
    await writeFile(file, "shows: []\n");
    await utimes(file, written, written);
    const after = await stat(file, { bigint: true });
    expect(after.size).toBe(before.size);
    expect(after.mtimeNs).toBe(before.mtimeNs);
    expect(openDigestRecord(out, LATER).find(after)).toBeUndefined();
  });

  it("keeps no digest of a file changed just before the build began", async () => {
    const out = join(root, "out-fresh");
    const file = join(root, "fresh.yaml");
    await writeFile(file, "episodes: []\n");
    const stats = await stat(file, { bigint: true });
    const record = openDigestRecord(out, Date.now());
    record.note(stats, DIGEST_2);
    record.commit();
    expect(openDigestRecord(out, LATER).find(stats)).toBeUndefined();
  });

  it("is only unused when it is damaged", async () => {
    const out = join(root, "out-damaged");
    const file = join(root, "damaged.yaml");
    await writeFile(file, "id: x\n");
    const stats = await stat(file, { bigint: true });
    const record = openDigestRecord(out, LATER);
    record.note(stats, DIGEST_3);
    record.commit();
    const path = join(out, STATE_PATH);
    const state = JSON.parse(await readFile(path, "utf8"));
    expect(JSON.stringify(state.digests)).toContain(DIGEST_3);
    await writeFile(path, JSON.stringify({ ...state, digests: "[not, json" }));
    expect(openDigestRecord(out, LATER).find(stats)).toBeUndefined();
  });
});
