import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { installNjsPolyfills, njsPolyfills } from "../../src/nginx/njsPolyfills.js";

const made = njsPolyfills();
const key = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -3, max: 3 }),
  fc.constant(Number.NaN),
);

describe("the built-ins njs lacks", () => {
  it("Map and Set keep what the built-ins keep, in the same order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, fc.nat())),
        fc.array(fc.tuple(fc.constantFrom("get", "set", "delete"), key, fc.nat())),
        (initial, steps) => {
          // Made from entries (repeated keys and NaN too), asked before and after any change.
          const ours = new made.Map<unknown, number>(initial);
          const real = new Map<unknown, number>(initial);
          const oursSet = new made.Set<unknown>(initial.map(([k]) => k));
          const realSet = new Set<unknown>(initial.map(([k]) => k));
          for (const [k] of initial) {
            expect(ours.get(k)).toBe(real.get(k));
            expect(oursSet.has(k)).toBe(realSet.has(k));
          }
          for (const [op, k, v] of steps) {
            if (op === "get") {
              expect(ours.get(k)).toBe(real.get(k));
              expect(oursSet.has(k)).toBe(realSet.has(k));
            } else if (op === "set") {
              ours.set(k, v);
              real.set(k, v);
              oursSet.add(k);
              realSet.add(k);
            } else {
              expect(ours.delete(k)).toBe(real.delete(k));
              expect(oursSet.delete(k)).toBe(realSet.delete(k));
            }
          }
          expect(ours.size).toBe(real.size);
          expect([...ours]).toEqual([...real]);
          expect([...oursSet]).toEqual([...realSet]);
          for (const [, k] of steps) {
            expect(ours.get(k)).toBe(real.get(k));
            expect(oursSet.has(k)).toBe(realSet.has(k));
          }
        },
      ),
    );
    expect(new made.Map(Object.entries({ a: 1 })).get("a")).toBe(1);
  });

  it("Array.from, matchAll and Object.fromEntries give what the built-ins give", () => {
    const bytes = new Uint8Array([1, 255]);
    expect(made.arrayFrom(bytes, (b: number) => b * 2)).toEqual(Array.from(bytes, (b) => b * 2));
    expect(made.arrayFrom("a𝄞")).toEqual(Array.from("a𝄞"));
    expect(made.arrayFrom(["x", "y"].entries())).toEqual(Array.from(["x", "y"].entries()));
    const list = '"a", W/"b" ,*';
    const pattern = /(?:W\/)?"([^"]*)"|\*/g;
    expect(made.matchAll.call(list, pattern).map((m) => [...m])).toEqual(
      [...list.matchAll(pattern)].map((m) => [...m]),
    );
    expect(made.fromEntries([["a", 1]])).toEqual({ a: 1 });
  });

  it("are installed only where the runtime has none", () => {
    expect(installNjsPolyfills(made)).toEqual([]);
    expect(Array.from).not.toBe(made.arrayFrom);
  });
});
