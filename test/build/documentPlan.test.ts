import { describe, expect, it } from "vitest";
import { planDocument } from "../../src/build/documentPlan.js";
import type { SeenFile } from "../../src/build/fileState.js";

const recorded: SeenFile = { state: "10 1 1 1:1", digest: "a".repeat(64) };
const before = { inputs: "inputs-1", file: recorded };
const sameFile = (file: SeenFile) => file;
const otherFile = () => undefined;
const plan = (over: Partial<Parameters<typeof planDocument>[0]>) =>
  planDocument({
    force: false,
    before,
    inputs: "inputs-1",
    journaled: false,
    seeUnchanged: sameFile,
    ...over,
  });

describe("planDocument", () => {
  it("reuses a document whose inputs and file are as recorded, and records the file as seen now", () => {
    const restored: SeenFile = { state: "10 2 2 1:9", digest: recorded.digest };
    expect(plan({})).toEqual({ render: false, file: recorded });
    expect(plan({ seeUnchanged: () => restored })).toEqual({ render: false, file: restored });
  });

  it("renders it, saying why, otherwise", () => {
    expect(plan({ force: true })).toEqual({ render: true, why: "--force renders every document" });
    expect(plan({ before: undefined })).toEqual({
      render: true,
      why: "no earlier build recorded it",
    });
    expect(plan({ inputs: "inputs-2" })).toEqual({ render: true, why: "its inputs changed" });
    expect(plan({ journaled: true })).toEqual({
      render: true,
      why: "a killed build journaled a version for it",
    });
    expect(plan({ seeUnchanged: otherFile })).toEqual({
      render: true,
      why: "its published file is gone or not the one the last build wrote",
    });
  });

  it("never looks at the file when the inputs already decide", () => {
    let looked = 0;
    const counting = (file: SeenFile) => {
      looked++;
      return file;
    };
    plan({ inputs: "inputs-2", seeUnchanged: counting });
    plan({ force: true, seeUnchanged: counting });
    expect(looked).toBe(0);
  });
});
