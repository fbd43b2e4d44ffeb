import { describe, expect, it } from "vitest";
import { genreHrefProblem, genreTermOf } from "../../../src/load/formats/genreTerm.js";

describe("genre terms", () => {
  it("knows the terms of the schemes TS 102 818 §5.3 names, with their labels", () => {
    expect(genreTermOf("urn:tva:metadata:cs:ContentCS:2011:3.6.4.14.6")).toEqual({
      scheme: "ContentCS",
      year: "2011",
      term: "3.6.4.14.6",
      label: "Alternative / Indie",
    });
    expect(genreTermOf("urn:tva:metadata:cs:FormatCS:2011:2.1.1")?.label).toBe("Bulletin");
    expect(genreTermOf("urn:tva:metadata:cs:IntentionCS:2005:1.1")?.label).toBe("ENTERTAIN");
    expect(genreTermOf("urn:tva:metadata:cs:AtmosphereCS:2005:8.0")?.label).toBe("Proprietary");
    expect(genreTermOf("urn:tva:metadata:cs:ContentCS:2011:3.6.4.10")).toBeUndefined();
  });

  it("says what is wrong: no URN, an unknown scheme (and its spelling), an unknown term", () => {
    expect(genreHrefProblem("urn:tva:metadata:cs:ContentCS:2011:3.6.1")).toBeUndefined();
    expect(genreHrefProblem("urn:tva:metadata:cs:ContentCS:2011:3.6.")).toMatch(
      /is not a TV-Anytime genre URN/,
    );
    expect(genreHrefProblem("urn:tva:metadata:cs:contentcs:2011:3.6.1")).toMatch(
      /names contentcs, not a classification scheme .*; did you mean ContentCS\?$/,
    );
    expect(genreHrefProblem("urn:tva:metadata:cs:FormatCS:2011:2.1.99")).toBe(
      '"urn:tva:metadata:cs:FormatCS:2011:2.1.99" is not a term of FormatCS: receivers drop a genre they do not know (TS 102 818 §5.3); 2.1 is STRUCTURED',
    );
  });
});
