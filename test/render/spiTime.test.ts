import { describe, expect, it } from "vitest";
import {
  formatEventLocatorTime,
  formatSpiDuration,
  formatSpiTime,
} from "../../src/render/spiTime.js";

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

describe("formatEventLocatorTime", () => {
  it("writes the basic ISO form in UTC, the same each time it is asked", () => {
    const instant = Date.parse("2026-11-16T17:30:00Z");
    expect(formatEventLocatorTime(instant)).toBe("20261116T173000Z");
    expect(formatEventLocatorTime(instant)).toBe("20261116T173000Z");
  });
});
