import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generatedSections, withSection } from "./referenceDocs.js";

/** Set by `npm run docs:update`: rewrite the generated sections from the code. */
const UPDATE = process.env.SPI_STATIC_DOCS === "update";

describe.each(generatedSections())("$file, section $name", (section) => {
  const path = new URL(`../../${section.file}`, import.meta.url);

  it.runIf(UPDATE)("is rewritten from the code", async () => {
    const updated = withSection(await readFile(path, "utf8"), section);
    expect(updated, `${section.file} has no markers for ${section.name}`).toBeDefined();
    await writeFile(path, updated ?? "");
  });

  it.skipIf(UPDATE)("says what the code says (npm run docs:update)", async () => {
    const document = await readFile(path, "utf8");
    expect(withSection(document, section)).toBe(document);
  });
});
