import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import { programmeShortId, SHORT_ID_CYCLE } from "../../src/schedule/programmeShortId.js";
import { addDays } from "../../src/time/plainDate.js";
import { episodesOf, makeService } from "../fixtures/makeService.js";

const MINUTE = 60_000;
const MAX_SHORT_ID = 2 ** 24 - 1;

describe("programmeShortId", () => {
  it("is a 24-bit shortCRID in the upper half of the range, never 0", () => {
    for (const start of [
      0,
      Date.parse("2026-11-23T05:00:00Z"),
      Date.parse("9998-12-31T23:59:00Z"),
    ]) {
      const id = programmeShortId(start);
      expect(id).toBeGreaterThanOrEqual(SHORT_ID_CYCLE);
      expect(id).toBeLessThanOrEqual(MAX_SHORT_ID);
    }
    expect(programmeShortId(0)).toBe(SHORT_ID_CYCLE);
  });

  it("depends on the start minute alone", () => {
    const start = Date.parse("2026-11-23T05:00:00Z");
    expect(programmeShortId(start + 59_999)).toBe(programmeShortId(start));
    expect(programmeShortId(start + MINUTE)).toBe(programmeShortId(start) + 1);
  });

  it("gives distinct minutes distinct ids for 2^23 minutes (15.9 years), then the cycle starts again", () => {
    // Injective on any run of SHORT_ID_CYCLE consecutive minutes: it is minute mod the cycle,
    // shifted. Checked at a wrap-around, where an off-by-one would show.
    const wrap = SHORT_ID_CYCLE * 3 * MINUTE;
    expect(programmeShortId(wrap - MINUTE)).toBe(MAX_SHORT_ID);
    expect(programmeShortId(wrap)).toBe(SHORT_ID_CYCLE);
    expect(programmeShortId(wrap + (SHORT_ID_CYCLE - 1) * MINUTE)).toBe(MAX_SHORT_ID);
    expect(programmeShortId(wrap + SHORT_ID_CYCLE * MINUTE)).toBe(SHORT_ID_CYCLE);
    expect(SHORT_ID_CYCLE * MINUTE).toBeGreaterThan(15.9 * 365.25 * 24 * 60 * MINUTE);
  });
});

const zone = fc.constantFrom(
  "Europe/Zurich",
  "America/New_York",
  "Australia/Lord_Howe", // clocks move by 30 minutes
  "Asia/Kathmandu", // UTC+05:45
  "Pacific/Chatham", // UTC+12:45 / +13:45
);
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
/** Days around both 2026 clock changes in Europe and America, and an ordinary one. */
const today = fc.constantFrom("2026-03-08", "2026-03-29", "2026-10-25", "2026-11-01", "2026-11-23");

describe("shortIds: unique, over every published window", () => {
  it("never gives two programmes of a service one shortId, and gives a programme the same one from every window", () => {
    fc.assert(
      fc.property(
        zone,
        fc.uniqueArray(time, { minLength: 1, maxLength: 30 }),
        fc.option(fc.tuple(time, time)),
        today,
        fc.integer({ min: 1, max: 8 }),
        (timeZone, starts, special, day, shift) => {
          const sorted = [...starts].sort();
          const daily = sorted.map((start, i) => `${start} show${i % 3}`);
          const dates =
            special && special[0] !== special[1]
              ? [{ date: day, specials: [`${special[0]}-${special[1]} special`] }]
              : [];
          const service = {
            ...makeService({ timeZone, daily, dates }),
            shortIds: "unique" as const,
          };
          const expand = (from: string) =>
            expandSchedule(
              service,
              "radio.example",
              addDays(from, -8),
              addDays(from, 8),
              episodesOf(service),
            );
          const { programmes, problems } = expand(day);
          expect(problems).toEqual([]);
          expect(programmes.length).toBeGreaterThan(0);
          const ids = programmes.map((p) => p.shortId);
          expect(new Set(ids).size).toBe(ids.length);
          for (const p of programmes) {
            expect(p.shortId).toBe(programmeShortId(p.start));
            expect(p.shortId).toBeGreaterThan(0);
            expect(p.shortId).toBeLessThanOrEqual(MAX_SHORT_ID);
          }
          // A later night's build: the days both windows cover have the same ids.
          const later = new Map(
            expand(addDays(day, shift)).programmes.map((p) => [p.crid, p.shortId]),
          );
          for (const p of programmes) {
            if (later.has(p.crid)) expect(later.get(p.crid)).toBe(p.shortId);
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("writes 0 by default, as the seed's API does", () => {
    const { programmes } = expandSchedule(
      makeService({ daily: ["06:00 a", "10:00 b"] }),
      "radio.example",
      "2026-11-15",
      "2026-12-01",
      episodesOf(makeService({ daily: ["06:00 a", "10:00 b"] })),
    );
    expect(new Set(programmes.map((p) => p.shortId))).toEqual(new Set([0]));
  });
});
