import { describe, expect, it } from "vitest";
import { boundProblem, quoteValue } from "../../../src/load/text/inputProblem.js";

const at = { file: "f.yaml", line: 1, column: 1, severity: "error" as const };

describe("quoteValue", () => {
  it("quotes a short value whole and a long one as its start and end", () => {
    expect(quoteValue("news")).toBe('"news"');
    const quoted = quoteValue(`${"a".repeat(1000)}${"z".repeat(1000)}`);
    expect(quoted).toBe(`"${"a".repeat(36)}…${"z".repeat(23)}"`);
  });

  it("never cuts a character outside the Basic Multilingual Plane in half", () => {
    const quoted = quoteValue("🎵".repeat(100));
    expect(quoted).not.toMatch(
      /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/,
    );
    expect(quoted.length).toBeLessThanOrEqual(62);
  });
});

describe("boundProblem", () => {
  it("keeps a problem that is short enough as it is", () => {
    const problem = { ...at, field: "id", message: '"Radio_1" is not a service id' };
    expect(boundProblem(problem)).toBe(problem);
  });

  it("cuts a message or field path that quotes a file at length, keeping the reason at the end", () => {
    const secret = "SPI_API_KEYS=k".repeat(100_000);
    const bounded = boundProblem({
      ...at,
      field: `shows.${secret}`,
      message: `"${secret}" is not a show id`,
    });
    expect(bounded.message.length).toBeLessThanOrEqual(300);
    expect(bounded.message).toMatch(/…[^…]*" is not a show id$/);
    expect(bounded.field.length).toBeLessThanOrEqual(120);
    expect(bounded.field.startsWith("shows.SPI_API_KEYS")).toBe(true);
  });
});
