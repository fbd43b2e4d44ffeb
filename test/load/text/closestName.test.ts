import { describe, expect, it } from "vitest";
import { closestName, didYouMean } from "../../../src/load/text/closestName.js";

const nameFields = ["short", "medium", "long"];
const serviceFields = ["id", "name", "description", "logos", "genres", "bearers", "streams"];

describe("closestName", () => {
  it("finds the field meant by a misspelling, a swap of two letters or a slip of case", () => {
    expect(closestName("descripton", serviceFields)).toBe("description");
    expect(closestName("mian", ["main", "secondary", "other"])).toBe("main");
    expect(closestName("Genres", serviceFields)).toBe("genres");
  });

  it("finds the field inside an SPI element name or a singular", () => {
    expect(closestName("mediumNmae", nameFields)).toBe("medium");
    expect(closestName("longName", nameFields)).toBe("long");
    expect(closestName("genre", serviceFields)).toBe("genres");
  });

  it("guesses nothing when nothing is close", () => {
    expect(closestName("colour", serviceFields)).toBeUndefined();
    expect(closestName("x", nameFields)).toBeUndefined();
  });

  it("words the hint, and gives none for an exact match", () => {
    expect(didYouMean("stream", serviceFields)).toBe('; did you mean "streams"?');
    expect(didYouMean("id", serviceFields)).toBe("");
  });
});
