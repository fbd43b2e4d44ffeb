import { describe, expect, it } from "vitest";
import { sameDocument } from "../../src/publish/sameDocument.js";

const pi = (creationTime: string, title: string) =>
  Buffer.from(
    `<?xml version="1.0"?>\n<epg><schedule creationTime="${creationTime}" originator="A"><programme>${title}</programme></schedule></epg>\n`,
  );

describe("sameDocument", () => {
  it("ignores creationTime", () => {
    expect(
      sameDocument(
        "x_PI.xml",
        pi("2026-11-22T04:00:00Z", "Morning"),
        pi("2026-11-23T04:00:00Z", "Morning"),
      ),
    ).toBe(true);
  });

  it("ignores creationTime around text that is not ASCII", () => {
    expect(
      sameDocument(
        "x_PI.xml",
        pi("2026-11-22T04:00:00Z", "Grüezi «Zürich» 🎵"),
        pi("2026-11-23T04:00:00Z", "Grüezi «Zürich» 🎵"),
      ),
    ).toBe(true);
    expect(
      sameDocument(
        "x_PI.xml",
        pi("2026-11-22T04:00:00Z", "Grüezi «Zürich» 🎵"),
        pi("2026-11-23T04:00:00Z", "Grüezi «Zürich» 🎶"),
      ),
    ).toBe(false);
  });

  it("sees any other change", () => {
    expect(
      sameDocument(
        "x_PI.xml",
        pi("2026-11-22T04:00:00Z", "Morning"),
        pi("2026-11-23T04:00:00Z", "Mornin'"),
      ),
    ).toBe(false);
    expect(
      sameDocument(
        "x_PI.xml",
        pi("2026-11-22T04:00:00Z", "Morning"),
        pi("2026-11-22T04:00:00Z", "Evening"),
      ),
    ).toBe(false);
  });

  it("ignores only the first creationTime, the one on the root or schedule", () => {
    const text = (stamp: string) => pi("2026-11-22T04:00:00Z", ` creationTime="${stamp}"`);
    expect(
      sameDocument("x_PI.xml", text("2026-11-22T04:00:00Z"), text("2026-11-23T04:00:00Z")),
    ).toBe(false);
  });

  it("compares files that are not XML byte for byte", () => {
    const js = (stamp: string) => Buffer.from(`const a = ' creationTime="${stamp}"';\n`);
    expect(sameDocument("_worker.js", js("2026-11-22T04:00:00Z"), js("2026-11-23T04:00:00Z"))).toBe(
      false,
    );
    expect(sameDocument("_worker.js", js("2026-11-22T04:00:00Z"), js("2026-11-22T04:00:00Z"))).toBe(
      true,
    );
  });
});
