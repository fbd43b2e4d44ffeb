import { readFile } from "node:fs/promises";
import { expect, it } from "vitest";

const readme = await readFile(new URL("../../README.md", import.meta.url), "utf8");
const packageJson = JSON.parse(
  await readFile(new URL("../../package.json", import.meta.url), "utf8"),
) as { scripts: Record<string, string> };

it("stays a page a user reads in ten minutes: at most 15 KB, the reference in docs/", () => {
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15_000);
});

it("names only npm scripts the package has, the contributors' quick start among them", () => {
  expect(readme).toContain("npm ci && npm start");
  expect(readme).toContain("npm test");
  const named = [...readme.matchAll(/npm run ([a-z:]+)/g)].map(([, script]) => script);
  expect(named.length).toBeGreaterThan(0);
  for (const script of ["start", "test", ...named]) {
    expect(packageJson.scripts[script ?? ""], `npm run ${script}`).toBeDefined();
  }
});
