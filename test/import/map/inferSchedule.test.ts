import { describe, expect, it } from "vitest";
import type { ImportNote } from "../../../src/import/importNote.js";
import { inferSchedule, type ShowAiring } from "../../../src/import/map/inferSchedule.js";
import { addDays, dateRange } from "../../../src/time/plainDate.js";

const ZONE = "Europe/Zurich";
/** Winter time in Zurich: UTC+1. */
const at = (date: string, clock: string) => Date.parse(`${date}T${clock}:00+01:00`);

/** Airings of a day plan ("06:00 morning", …) on each date, each until the next one starts. */
function airings(days: Record<string, string[]>): ShowAiring[] {
  const starts = Object.entries(days).flatMap(([date, plan]) =>
    plan.map((entry) => {
      const [clock = "", showId = ""] = entry.split(" ");
      return { start: at(date, clock), showId };
    }),
  );
  starts.sort((a, b) => a.start - b.start);
  return starts.map((s, i) => ({
    ...s,
    end: starts[i + 1]?.start ?? s.start + 3_600_000,
    origin: `test:${i}`,
  }));
}

const WEEKDAY = ["00:00 night", "06:00 morning", "12:00 midday", "18:00 evening"];

describe("inferSchedule", () => {
  it("makes a grid of the weekdays that repeat, and a dated entry of a day that does not", () => {
    const dates = dateRange("2026-11-02", "2026-11-15"); // two weeks, Monday to Sunday
    const plan = Object.fromEntries(dates.map((d) => [d, WEEKDAY]));
    plan["2026-11-10"] = ["00:00 night", "06:00 morning", "12:00 concert", "18:00 evening"];
    const notes: ImportNote[] = [];
    const schedule = inferSchedule(airings(plan), new Set(dates), ZONE, notes);
    expect(schedule.grid).toEqual([
      {
        days: "daily",
        slots: [
          { start: "00:00", show: "night" },
          { start: "06:00", show: "morning" },
          { start: "12:00", show: "midday" },
          { start: "18:00", show: "evening" },
        ],
      },
    ]);
    expect(schedule.dates).toEqual([
      { date: "2026-11-10", specials: [{ start: "12:00", end: "18:00", show: "concert" }] },
    ]);
    expect(notes).toEqual([]);
  });

  it("keeps a weekday out of the grid when its dates differ, and gives each its own slots", () => {
    const dates = ["2026-11-02", "2026-11-09"];
    const plan = { "2026-11-02": ["06:00 a", "09:00 b"], "2026-11-09": ["07:00 c", "10:00 d"] };
    const schedule = inferSchedule(airings(plan), new Set(dates), ZONE, []);
    expect(schedule.grid).toEqual([]);
    expect(schedule.dates?.map((d) => [d.date, d.slots?.map((s) => s.show)])).toEqual([
      ["2026-11-02", ["a", "b"]],
      ["2026-11-09", ["c", "d"]],
    ]);
  });

  it("writes `like` for a date that ran another weekday's grid (a holiday on Sunday's)", () => {
    const dates = dateRange("2026-11-02", "2026-11-15");
    const sunday = ["00:00 night", "09:00 brunch", "18:00 evening"];
    const plan = Object.fromEntries(
      dates.map((d) => [d, new Date(d).getUTCDay() === 0 ? sunday : WEEKDAY]),
    );
    plan["2026-11-11"] = sunday; // a Wednesday
    const schedule = inferSchedule(airings(plan), new Set(dates), ZONE, []);
    expect(schedule.grid.map((g) => g.days)).toEqual(["mon-sat", "sun"]);
    expect(schedule.dates).toEqual([{ date: "2026-11-11", like: "sun" }]);
  });

  it("ends a slot only where a gap follows it", () => {
    const dates = dateRange("2026-11-02", "2026-11-15");
    const list = dates.flatMap((date) => [
      { start: at(date, "06:00"), end: at(date, "09:00"), showId: "a", origin: "x" },
      { start: at(date, "09:00"), end: at(date, "10:00"), showId: "b", origin: "x" },
      { start: at(date, "12:00"), end: at(addDays(date, 1), "06:00"), showId: "c", origin: "x" },
    ]);
    const schedule = inferSchedule(list, new Set(dates), ZONE, []);
    expect(schedule.grid).toEqual([
      {
        days: "daily",
        slots: [
          { start: "06:00", show: "a" },
          { start: "09:00", end: "10:00", show: "b" },
          { start: "12:00", show: "c" },
        ],
      },
    ]);
    expect(schedule.dates).toBeUndefined();
  });

  it("notes a start that a wall time cannot name: the repeated hour when clocks go back", () => {
    // 25 October 2026: 02:30 happens twice in Zurich; the second is 01:30 UTC.
    const second = Date.parse("2026-10-25T01:30:00Z");
    const notes: ImportNote[] = [];
    inferSchedule(
      [{ start: second, end: second + 3_600_000, showId: "late", origin: "PI.xml:9:5" }],
      new Set(["2026-10-25"]),
      ZONE,
      notes,
    );
    expect(notes).toEqual([
      {
        origin: "PI.xml:9:5",
        message:
          "the start 2026-10-25T01:30:00.000Z falls in the hour the clocks repeat, and a wall time there means its first occurrence: imported as 02:30 (2026-10-25)",
      },
    ]);
  });
});
