import { describe, expect, it } from "vitest";
import { lowerForNjs, pcreAnyCharacter } from "../../src/nginx/lowerForNjs.js";

describe("making today's JavaScript parseable for njs 0.7", () => {
  it("moves an await out of call arguments to just before its statement, in order", async () => {
    const code = await lowerForNjs(
      "export async function f(g, a, b) { const x = g(await a, new Uint8Array(await b)); return x; }",
    );
    expect(code).not.toMatch(/\((?:[^()]*,\s*)?await /);
    const awaited = [...code.matchAll(/var (_awaited\d*) = await (\w+);/g)].map((m) => m[2]);
    expect(awaited).toEqual(["a", "b"]);
    // Still the same function: run it.
    const run = new Function(`${code.replace("export ", "")}; return f;`)() as (
      g: (...args: unknown[]) => unknown,
      a: unknown,
      b: unknown,
    ) => Promise<unknown>;
    expect(await run((...args) => args, Promise.resolve(1), Promise.resolve([2]))).toEqual([
      1,
      new Uint8Array([2]),
    ]);
  });

  it("refuses an await in an argument that runs only on one side of a condition", async () => {
    await expect(
      lowerForNjs("export async function f(g, c, a) { return c ? g(await a) : 0; }"),
    ).rejects.toThrow(/condition/);
    await expect(
      lowerForNjs("export async function f(g, c, a) { return c && g(await a); }"),
    ).rejects.toThrow(/condition/);
  });

  it("lowers destructuring, spread, optional chaining and the s flag; keeps async", async () => {
    const code = await lowerForNjs(
      "export async function f(o) { const [a, b] = o.x ?? []; const h = { ...o.h, a }; return /^a(.*?)$/is.exec(o?.y) && h[b]; }",
    );
    expect(code).not.toMatch(/\.\.\.|\?\.|\?\?|const \[|\/is\b/);
    expect(code).toContain("async function f");
    expect(code).toContain("[\\s\\S]*?");
  });

  it("spells any-character as PCRE does, outside classes and escapes only", () => {
    expect(pcreAnyCharacter("^a([^]*?)$")).toBe("^a([\\s\\S]*?)$");
    expect(pcreAnyCharacter("\\[^]")).toBe("\\[^]");
    expect(pcreAnyCharacter("[a[^]]")).toBe("[a[^]]");
  });
});
