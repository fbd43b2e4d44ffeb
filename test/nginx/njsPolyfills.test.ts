import { describe, expect, it } from "vitest";
import { installNjsPolyfills, njsPolyfills } from "../../src/nginx/njsPolyfills.js";

const made = njsPolyfills();

describe("the built-ins njs lacks", () => {
  it("Array.from, matchAll and Object.hasOwn give what the built-ins give", () => {
    const bytes = new Uint8Array([1, 255]);
    expect(made.arrayFrom(bytes, (b: number) => b * 2)).toEqual(Array.from(bytes, (b) => b * 2));
    expect(made.arrayFrom("a𝄞")).toEqual(Array.from("a𝄞"));
    expect(made.arrayFrom(["x", "y"].entries())).toEqual(Array.from(["x", "y"].entries()));
    const list = '"a", W/"b" ,*';
    const pattern = /(?:W\/)?"([^"]*)"|\*/g;
    expect(made.matchAll.call(list, pattern).map((m) => [...m])).toEqual(
      [...list.matchAll(pattern)].map((m) => [...m]),
    );
    const table = { "dab/4e1/4fe1/4e01/0": "a/b" };
    for (const key of ["dab/4e1/4fe1/4e01/0", "toString", "__proto__", "x"]) {
      expect(made.hasOwn(table, key)).toBe(Object.hasOwn(table, key));
    }
  });

  it("are installed only where the runtime has none", () => {
    expect(installNjsPolyfills(made)).toEqual([]);
    expect(Array.from).not.toBe(made.arrayFrom);
  });
});
