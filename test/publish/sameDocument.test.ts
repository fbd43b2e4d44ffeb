import { describe, expect, it } from "vitest";
import {
  contentDigest,
  findStamp,
  sameDocument,
  withVersion,
} from "../../src/publish/sameDocument.js";

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

  it("ignores the version right after creationTime, and a version missing there (render writes none)", () => {
    const versioned = (version: string) =>
      Buffer.from(
        pi("2026-11-22T04:00:00Z", "Morning")
          .toString()
          .replace('04:00:00Z"', `04:00:00Z" version="${version}"`),
      );
    expect(sameDocument("x_PI.xml", versioned("12"), pi("2026-11-23T04:00:00Z", "Morning"))).toBe(
      true,
    );
    expect(sameDocument("x_PI.xml", versioned("12"), versioned("1"))).toBe(true);
    expect(sameDocument("x_PI.xml", versioned("12"), pi("2026-11-23T04:00:00Z", "Evening"))).toBe(
      false,
    );
  });
});

describe("the document stamp", () => {
  const stampOf = (document: Buffer) => {
    const stamp = findStamp("x_PI.xml", document);
    if (!stamp) throw new Error("no stamp");
    return stamp;
  };
  const rendered = Buffer.from(
    '<epg><schedule creationTime="2026-11-23T04:00:00Z" originator="A"><p>x</p></schedule></epg>\n',
  );

  it("adds the version right after creationTime, then replaces its digits", () => {
    const first = withVersion(rendered, stampOf(rendered), 1);
    expect(first.toString()).toContain(
      'creationTime="2026-11-23T04:00:00Z" version="1" originator',
    );
    const stamp = stampOf(first);
    expect(stamp.version).toBe(1);
    const tenth = withVersion(first, stamp, 10);
    expect(tenth.toString()).toContain('04:00:00Z" version="10" originator="A"><p>x</p>');
    expect(findStamp("x_PI.xml", tenth)?.version).toBe(10);
  });

  it("reads a document without a version as version 1, the XSD's default", () => {
    expect(findStamp("x_PI.xml", rendered)?.version).toBe(1);
    expect(findStamp("_worker.js", rendered)).toBeUndefined();
  });

  it("digests the content outside the stamp: the same for every creationTime and version", () => {
    const digest = (document: Buffer) => contentDigest(document, findStamp("x_PI.xml", document));
    const later = Buffer.from(rendered.toString().replace("04:00", "05:00"));
    const versioned = withVersion(rendered, stampOf(rendered), 7);
    expect(digest(later)).toBe(digest(rendered));
    expect(digest(versioned)).toBe(digest(rendered));
    expect(digest(Buffer.from(rendered.toString().replace("<p>x", "<p>y")))).not.toBe(
      digest(rendered),
    );
  });
});
