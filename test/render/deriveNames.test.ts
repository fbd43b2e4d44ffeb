import { describe, expect, it } from "vitest";
import {
  deriveNames,
  deriveSomeNames,
  truncateWithEllipsis,
} from "../../src/render/deriveNames.js";

describe("deriveNames", () => {
  it("derives mediumName from the long name, cut to 16 characters with the ellipsis", () => {
    const names = deriveNames({ long: "The Morning Briefing with Lea Brunner" });
    expect(names.medium).toBe("The Morning Bri…");
    expect(Array.from(names.medium)).toHaveLength(16);
  });

  it("keeps a short long name and an explicit mediumName as they are", () => {
    expect(deriveNames({ long: "Aare Pop" }).medium).toBe("Aare Pop");
    expect(
      deriveNames({ long: "Sinfoniekonzert am Sonntagabend", medium: "Sinfoniekonzert" }).medium,
    ).toBe("Sinfoniekonzert");
  });

  it("counts characters, not UTF-16 units, and drops a trailing space before the ellipsis", () => {
    expect(truncateWithEllipsis("Größte Hits der 80er 🎸🎸", 16)).toBe("Größte Hits der…");
    expect(Array.from(truncateWithEllipsis("🎸".repeat(20), 16))).toHaveLength(16);
  });

  it("keeps a text of exactly the limit in characters, longer in UTF-16 units", () => {
    expect(truncateWithEllipsis("🎸".repeat(16), 16)).toBe("🎸".repeat(16));
    expect(truncateWithEllipsis("Hits 🎸🎸 der 80er", 16)).toBe("Hits 🎸🎸 der 80er");
    expect(truncateWithEllipsis("🎸".repeat(17), 16)).toBe(`${"🎸".repeat(15)}…`);
    expect(truncateWithEllipsis("abcdefghijklmnop", 16)).toBe("abcdefghijklmnop");
    expect(truncateWithEllipsis("abcdefghijklmnopq", 16)).toBe("abcdefghijklmno…");
  });

  it("derives a translation's mediumName only from a long name it gives", () => {
    expect(deriveSomeNames({ long: "Le Briefing du matin avec Lea" })).toEqual({
      long: "Le Briefing du matin avec Lea",
      medium: "Le Briefing du…",
    });
    expect(deriveSomeNames({ long: "Le Briefing du matin", medium: "Briefing" })).toEqual({
      long: "Le Briefing du matin",
      medium: "Briefing",
    });
    expect(deriveSomeNames({ short: "Matin" })).toEqual({ short: "Matin" });
  });
});
