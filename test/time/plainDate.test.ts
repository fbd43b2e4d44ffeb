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
  });

  it("lists a range inclusively", () => {
    expect(dateRange("2026-11-30", "2026-12-02")).toEqual([
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
    ]);
  });
});
