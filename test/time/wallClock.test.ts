import { describe, expect, it } from "vitest";
import { localDateOf, resolveWallTime } from "../../src/time/wallClock.js";

const iso = (instant: number) => new Date(instant).toISOString();
const at = (hh: number, mm = 0) => hh * 60 + mm;

describe("resolveWallTime", () => {
  it("resolves ordinary winter and summer times in Zurich", () => {
    expect(iso(resolveWallTime("Europe/Zurich", "2026-01-15", at(6)))).toBe(
      "2026-01-15T05:00:00.000Z",
    );
    expect(iso(resolveWallTime("Europe/Zurich", "2026-07-15", at(6)))).toBe(
      "2026-07-15T04:00:00.000Z",
    );
  });

  it("puts a time in the skipped hour (spring forward) at the instant the clocks jump", () => {
    // 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00Z.
    expect(iso(resolveWallTime("Europe/Zurich", "2026-03-29", at(2)))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(iso(resolveWallTime("Europe/Zurich", "2026-03-29", at(2, 30)))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(iso(resolveWallTime("Europe/Zurich", "2026-03-29", at(3)))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(iso(resolveWallTime("Europe/Zurich", "2026-03-29", at(1, 59)))).toBe(
      "2026-03-29T00:59:00.000Z",
    );
  });

  it("takes the first occurrence of a repeated time (fall back)", () => {
    // 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00Z; 02:30 happens at 00:30Z and 01:30Z.
    expect(iso(resolveWallTime("Europe/Zurich", "2026-10-25", at(2, 30)))).toBe(
      "2026-10-25T00:30:00.000Z",
    );
    expect(iso(resolveWallTime("Europe/Zurich", "2026-10-25", at(3)))).toBe(
      "2026-10-25T02:00:00.000Z",
    );
  });

  it("handles London, a zone without DST (Kolkata) and a half-hour shift (Lord Howe)", () => {
    expect(iso(resolveWallTime("Europe/London", "2026-03-29", at(1, 30)))).toBe(
      "2026-03-29T01:00:00.000Z",
    );
    expect(iso(resolveWallTime("Asia/Kolkata", "2026-03-29", at(0)))).toBe(
      "2026-03-28T18:30:00.000Z",
    );
    // Lord Howe springs forward 02:00 → 02:30 on 2026-10-04.
    expect(iso(resolveWallTime("Australia/Lord_Howe", "2026-10-04", at(2, 15)))).toBe(
      "2026-10-03T15:30:00.000Z",
    );
  });
});

describe("localDateOf", () => {
  it("gives the calendar date in the zone, not the host's", () => {
    const instant = Date.parse("2026-11-22T23:30:00Z");
    expect(localDateOf("Europe/Zurich", instant)).toBe("2026-11-23");
    expect(localDateOf("America/Los_Angeles", instant)).toBe("2026-11-22");
    expect(localDateOf("UTC", instant)).toBe("2026-11-22");
  });
});

describe("resolveWallTime over whole years", () => {
  const wallClockReading = (zone: string) => {
    const format = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    });
    return (instant: number) => format.format(instant).replace(", ", " ");
  };

  // Steady days are resolved by arithmetic and days near a switch time by time: both must keep
  // the rule (a time read on the zone's clock at its first occurrence, a skipped time at the jump).
  it.each(["Europe/Zurich", "America/Los_Angeles", "Australia/Lord_Howe", "Asia/Kolkata"])(
    "puts every half hour of 2026 in %s where the zone's clock shows it first",
    (zone) => {
      const reading = wallClockReading(zone);
      const wrong: string[] = [];
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        for (let minutes = 0; minutes < 1440; minutes += 30) {
          const wall = `${date} ${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
          const instant = resolveWallTime(zone, date, minutes);
          const shown = reading(instant);
          const skipped = shown > wall && reading(instant - 60_000) < wall;
          const earlier = [1, 2, 3, 4].some((k) => reading(instant - k * 30 * 60_000) === wall);
          if ((shown !== wall && !skipped) || earlier) wrong.push(`${wall} → ${iso(instant)}`);
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it.each(["Europe/Zurich", "America/Los_Angeles", "Australia/Lord_Howe"])(
    "gives the date the clock in %s shows at every half hour of 2026",
    (zone) => {
      const reading = wallClockReading(zone);
      const wrong: string[] = [];
      for (
        let instant = Date.UTC(2026, 0, 1);
        instant < Date.UTC(2027, 0, 1);
        instant += 1_800_000
      ) {
        const date = localDateOf(zone, instant);
        if (date !== reading(instant).slice(0, 10)) wrong.push(`${iso(instant)} → ${date}`);
      }
      expect(wrong).toEqual([]);
    },
  );
});
