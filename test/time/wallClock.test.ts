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
