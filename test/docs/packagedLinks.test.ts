import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { dirname, join, normalize } from "node:path";
import { expect, it } from "vitest";

/** What `npm pack` puts in the package, as the registry and the README's install give it. */
async function packedFiles(): Promise<string[]> {
  const stdout = await new Promise<string>((done, fail) =>
    execFile(
      "npm",
      ["pack", "--dry-run", "--json", "--ignore-scripts"],
      { maxBuffer: 16 << 20 },
      (error, out) => (error ? fail(error) : done(out)),
    ),
  );
  return (JSON.parse(stdout) as [{ files: { path: string }[] }])[0].files.map((f) => f.path);
}

it("ships the documents the README links to, and every relative link in them works in the package", async () => {
  const files = new Set(await packedFiles());
  expect(files).toContain("docs/commands.md");
  const broken: string[] = [];
  for (const document of [...files].filter((path) => path.endsWith(".md"))) {
    const text = (await readFile(document, "utf8")).replace(/^```[\s\S]*?^```/gm, "");
    for (const [, target = ""] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const path = target.split("#")[0] ?? "";
      if (/^[a-z]+:/.test(target) || path === "") continue;
      const file = normalize(join(dirname(document), path));
      // A folder link works when the package holds something in it.
      if (!files.has(file) && ![...files].some((f) => f.startsWith(`${file}/`))) {
        broken.push(`${document}: ${target}`);
      }
    }
  }
  expect(broken).toEqual([]);
}, 120_000);
