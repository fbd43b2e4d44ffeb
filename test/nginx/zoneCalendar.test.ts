import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createZoneIntl, ZONE_SPAN, zoneOffsets } from "../../src/nginx/zoneCalendar.js";

const ZONES = [
  "Europe/Zurich",
  "America/New_York",
  "Australia/Lord_Howe",
  "Asia/Kathmandu",
  "Pacific/Chatham",
  "America/Sao_Paulo",
  "UTC",
];
const OPTIONS = { year: "numeric", month: "2-digit", day: "2-digit" } as const;

type Format = { formatToParts(date: Date): Intl.DateTimeFormatPart[] };
function dateParts(format: Format, instant: number): Record<string, string> {
  const parts = format.formatToParts(new Date(instant));
  return Object.fromEntries(
    parts.filter((p) => p.type !== "literal").map((p) => [p.type, p.value]),
  );
}

describe("the provider's zone without Intl (njs)", () => {
  it("gives the same calendar date as Intl at any instant from 2000 to 2100, across every change of offset", () => {
    for (const timeZone of ZONES) {
      const zone = zoneOffsets(timeZone);
      const Ours = createZoneIntl(zone).DateTimeFormat as new (l: string, o: object) => Format;
      const ours = new Ours("en-US-u-ca-gregory-nu-latn", { timeZone, ...OPTIONS });
      const real = new Intl.DateTimeFormat("en-US-u-ca-gregory-nu-latn", { timeZone, ...OPTIONS });
      // Just before, at and after each change, and anywhere.
      const edges = zone.starts.slice(1).flatMap((t) => [t - 1, t, t + 1]);
      for (const instant of edges)
        expect(dateParts(ours, instant)).toEqual(dateParts(real, instant));
      fc.assert(
        fc.property(fc.integer({ min: ZONE_SPAN.from, max: ZONE_SPAN.to - 1 }), (instant) => {
          expect(dateParts(ours, instant)).toEqual(dateParts(real, instant));
        }),
        { numRuns: 500 },
      );
    }
  });

  it("refuses another zone or more than a date, rather than answer differently", () => {
    const { DateTimeFormat } = createZoneIntl(zoneOffsets("Europe/Zurich"));
    const Format = DateTimeFormat as new (l: string, o: object) => Format;
    expect(() => new Format("en-US", { timeZone: "Europe/London", ...OPTIONS })).toThrow(
      RangeError,
    );
    expect(() => new Format("en-US", { timeZone: "Europe/Zurich", hour: "2-digit" })).toThrow(
      RangeError,
    );
  });
});
