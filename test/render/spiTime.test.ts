import { describe, expect, it } from "vitest";
import { formatSpiDuration, formatSpiTime } from "../../src/render/spiTime.js";

const minutes = (m: number) => m * 60_000;

describe("formatSpiDuration", () => {
  it("writes hours, minutes and seconds without fractions", () => {
    expect(formatSpiDuration(minutes(90))).toBe("PT1H30M");
    expect(formatSpiDuration(minutes(45))).toBe("PT45M");
    expect(formatSpiDuration(minutes(165) + 30_000)).toBe("PT2H45M30S");
    expect(formatSpiDuration(minutes(24 * 60))).toBe("PT24H");
    expect(formatSpiDuration(minutes(25 * 60))).toBe("PT25H");
    expect(formatSpiDuration(0)).toBe("PT0S");
  });
});

describe("formatSpiTime", () => {
  it("writes UTC with Z and no fractional seconds", () => {
    expect(formatSpiTime(Date.parse("2026-03-29T01:00:00.250Z"))).toBe("2026-03-29T01:00:00Z");
  });
});
