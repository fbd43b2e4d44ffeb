import { describe, expect, it } from "vitest";
import { deriveNames, truncateWithEllipsis } from "../../src/render/deriveNames.js";

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
});
