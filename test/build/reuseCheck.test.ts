import { describe, expect, it } from "vitest";
import { sampleDate } from "../../src/build/reuseCheck.js";
import { addDays, dateRange, type PlainDate } from "../../src/time/plainDate.js";

/** The published days of a build on `today`: a week either side. */
const windowOf = (today: PlainDate) => dateRange(addDays(today, -7), addDays(today, 7));

describe("sampleDate", () => {
  it("checks every document once in the 15 nights it is published, one per service each night", () => {
    for (const service of ["news", "pop", "jazz", "a-much-longer-service-id"]) {
      const checked = new Map<PlainDate, number>();
      // Every document published from night 0 on lives its 15 nights within these 45.
      for (let night = 0; night < 45; night++) {
        const today = addDays("2026-11-01", night);
        const date = sampleDate(service, today, windowOf(today), () => true);
        expect(date, `${service} on ${today}`).toBeDefined();
        checked.set(date as PlainDate, (checked.get(date as PlainDate) ?? 0) + 1);
      }
      // A document of day D is published on the nights D − 7 to D + 7: those of these days
      // lived all their 15 nights within the 45.
      for (const day of dateRange("2026-11-08", "2026-12-08")) {
        expect(checked.get(day), `${service}: ${day}`).toBe(1);
      }
    }
  });

  it("takes the next reused document when the one at its turn is rendered anyway", () => {
    const today = "2026-11-28";
    const dates = windowOf(today);
    const atTurn = sampleDate("news", today, dates, () => true) as PlainDate;
    const next = sampleDate("news", today, dates, (date) => date !== atTurn);
    expect(next).toBe(dates[(dates.indexOf(atTurn) + 1) % dates.length]);
    expect(sampleDate("news", today, dates, () => false)).toBeUndefined();
  });
});
