import { expect, it } from "vitest";
import { countryCodeProblem } from "../../../src/load/formats/countryCode.js";

it("accepts ISO 3166-1 alpha-2 codes in either case and refuses the rest", () => {
  for (const code of ["CH", "ch", "LI", "GB", "XK"])
    expect(countryCodeProblem(code), code).toBeUndefined();
  expect(countryCodeProblem("UK")).toBe('"UK" is not an ISO 3166-1 code; the United Kingdom is GB');
  for (const code of ["XX", "EU", "ZZ", "QO", "AA"]) {
    expect(countryCodeProblem(code), code).toBe(
      `"${code}" is not an ISO 3166-1 country code (e.g. CH, DE, FR)`,
    );
  }
  expect(countryCodeProblem("CHE")).toBe(
    '"CHE" is not a country code (two letters of ISO 3166-1, e.g. CH)',
  );
});
