import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, normalize, relative } from "node:path";
import { expect, it } from "vitest";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * Documents that other work of the same session adds, linked before they land (issue 24 split
 * the docs between helpers). A listed file that exists is checked like any other.
 */
const LANDING_WITH_OTHER_WORK = new Set([
  "docs/deploy.md",
  "docs/nightly-operation.md",
  "docs/maintainers/engine.md",
  "docs/nginx.md",
  "docs/import.md",
  "docs/receivers.md",
]);

async function documents(): Promise<string[]> {
  const inDocs = await readdir(join(ROOT, "docs"), { recursive: true });
  return [
    "README.md",
    "BENCHMARKS.md",
    ...inDocs.filter((name) => name.endsWith(".md")).map((name) => join("docs", name)),
  ];
}

/** The anchors GitHub makes of a document's headings (and explicit `<a id>`s). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  const prose = text.replace(/^```[\s\S]*?^```/gm, "");
  for (const [, heading = ""] of prose.matchAll(/^#{1,6} (.*)$/gm)) {
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, "")
      .replace(/ /g, "-");
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  for (const [, id = ""] of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

it("has every link between the documents pointing at a file of the repository, and its heading", async () => {
  const broken: string[] = [];
  for (const document of await documents()) {
    const text = await readFile(join(ROOT, document), "utf8");
    for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path = "", anchor] = target.split("#");
      const file = path ? normalize(relative(ROOT, join(ROOT, dirname(document), path))) : document;
      if (!existsSync(join(ROOT, file))) {
        if (!LANDING_WITH_OTHER_WORK.has(file)) broken.push(`${document}: ${target}`);
        continue;
      }
      if (anchor && file.endsWith(".md")) {
        const anchors = anchorsOf(await readFile(join(ROOT, file), "utf8"));
        if (!anchors.has(anchor)) broken.push(`${document}: ${target} (no such heading)`);
      }
    }
  }
  expect(broken).toEqual([]);
});
