import { describe, expect, it } from "vitest";
import { printable, printableLines } from "../../src/exit/printableText.js";

describe("text on its way to a terminal", () => {
  it("escapes every control character of a value, line breaks included", () => {
    expect(printable("a\u001b[2Jb\u001b]0;title\u0007c\nd\re\tf\u009bg\u007f")).toBe(
      "a\\u001b[2Jb\\u001b]0;title\\u0007c\\nd\\re\\tf\\u009bg\\u007f",
    );
    expect(printable("Zürich – Ünïcödé 📻")).toBe("Zürich – Ünïcödé 📻");
  });

  it("escapes the bidirectional overrides and line separators that reorder or break a line", () => {
    expect(printable("a\u202eb\u2066c\u2028d")).toBe("a\\u202eb\\u2066c\\u2028d");
  });

  it("keeps the line breaks and tabs between whole lines, and escapes the rest", () => {
    expect(printableLines("one\n\ttwo\u001b[K\r")).toBe("one\n\ttwo\\u001b[K\\r");
  });

  it("leaves JSON valid and meaning the same: the escapes are JSON's own", () => {
    const value = { id: "x\u009b\u2028\u007fy" };
    const line = printableLines(JSON.stringify(value));
    expect(line).not.toMatch(/\p{Cc}/u);
    expect(JSON.parse(line)).toEqual(value);
  });
});
