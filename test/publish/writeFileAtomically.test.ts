import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isTemporaryFile, writeFileAtomically } from "../../src/publish/writeFileAtomically.js";

const SIZE = 4 * 1024 * 1024;

describe("writeFileAtomically", () => {
  it("never lets a concurrent reader see a part of a document", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-atomic-"));
    const target = join(dir, "SI.xml");
    const versions = ["a", "b", "c"].map((letter) => letter.repeat(SIZE));
    await writeFile(target, versions[0] as string);

    let writing = true;
    const seen: string[] = [];
    const reader = (async () => {
      while (writing) {
        const content = await readFile(target, "utf8");
        seen.push(
          content.length === SIZE && content === content[0]?.repeat(SIZE)
            ? "whole"
            : `part ${content.length}`,
        );
      }
    })();
    for (let i = 1; i <= 30; i++) {
      writeFileAtomically(target, versions[i % 3] as string);
      // Let the reader run between writes, as other work does during a build.
      await new Promise((resolve) => setImmediate(resolve));
    }
    writing = false;
    await reader;

    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((s) => s !== "whole")).toEqual([]);
    expect(await readdir(dir)).toEqual(["SI.xml"]);
  });

  it("creates missing folders and names its temporary files recognisably", async () => {
    const dir = await mkdtemp(join(tmpdir(), "spi-atomic-"));
    writeFileAtomically(join(dir, "a/b/c.xml"), "<x/>\n");
    expect(await readFile(join(dir, "a/b/c.xml"), "utf8")).toBe("<x/>\n");
    expect(isTemporaryFile(".c.xml.0123456789ab.spi-static.tmp")).toBe(true);
    expect(isTemporaryFile("c.xml")).toBe(false);
    expect(isTemporaryFile(".c.xml.tmp")).toBe(false);
  });
});
