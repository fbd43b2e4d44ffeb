import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  compactDate,
  dateRange,
  daysBetween,
  isCalendarDate,
  weekdayIndex,
} from "../../src/time/plainDate.js";

describe("plainDate", () => {
  it("adds days across months, years and DST switches", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-29", -1)).toBe("2026-03-28");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(daysBetween("2026-11-15", "2026-12-01")).toBe(16);
  });

  it("knows weekdays (Monday = 0) and the PI file name form", () => {
    expect(weekdayIndex("2026-11-23")).toBe(0);
    expect(weekdayIndex("2026-11-29")).toBe(6);
    expect(compactDate("2026-11-23")).toBe("20261123");
  });

  it("rejects dates that are not on the calendar", () => {
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2026-13-01")).toBe(false);
    expect(isCalendarDate("1900-02-29")).toBe(false);
    expect(isCalendarDate("2000-02-29")).toBe(true);
    expect(isCalendarDate("0099-01-01")).toBe(false);
  });

  it("accepts exactly the dates that survive a round trip through Date", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (year, month, day) => {
          const date = [year, month, day].map((n, i) => String(n).padStart(i ? 2 : 4, "0"));
          const text = date.join("-");
          const roundTrip = new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
          expect(isCalendarDate(text)).toBe(roundTrip === text);
        },
      ),
    );
  });

  it("lists a range inclusively", () => {
    expect(dateRange("2026-11-30", "2026-12-02")).toEqual([
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
    ]);
  });
});
