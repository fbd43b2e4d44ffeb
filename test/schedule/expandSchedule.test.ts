import { describe, expect, it } from "vitest";
import { expandSchedule, overlapProblem } from "../../src/schedule/expandSchedule.js";
import { episodesOf, makeService } from "../fixtures/makeService.js";

const hours = (ms: number) => ms / 3_600_000;

function airings(service: ReturnType<typeof makeService>, from: string, to = from) {
  return expandSchedule(service, "radio.example", from, to, episodesOf(service)).programmes.map(
    (p) => ({
      show: p.showId,
      start: new Date(p.start).toISOString().slice(0, 16),
      hours: hours(p.end - p.start),
      billed: p.billedDate,
    }),
  );
}

describe("expandSchedule", () => {
  const night = makeService({ daily: ["01:00-04:00 night", "04:00 early", "12:00 day"] });

  it("gives a 01:00–04:00 slot 2 hours on the spring-forward night", () => {
    expect(airings(night, "2026-03-29")[0]).toEqual({
      show: "night",
      start: "2026-03-29T00:00",
      hours: 2,
      billed: "2026-03-29",
    });
  });

  it("gives the same slot 4 hours on the fall-back night", () => {
    expect(airings(night, "2026-10-25")[0]).toEqual({
      show: "night",
      start: "2026-10-24T23:00",
      hours: 4,
      billed: "2026-10-25",
    });
  });

  it("runs a slot without an end until the next slot, across midnight", () => {
    const day = airings(night, "2026-11-23");
    expect(day.map((a) => [a.show, a.start, a.hours])).toEqual([
      ["night", "2026-11-23T00:00", 3],
      ["early", "2026-11-23T03:00", 8],
      ["day", "2026-11-23T11:00", 13], // 12:00 until 01:00 the next morning
    ]);
  });

  it("leaves a gap where a slot ends before the next one starts", () => {
    const day = airings(night, "2026-11-23");
    expect(day[1]?.start).toBe("2026-11-23T03:00"); // night ended at 04:00, early starts at 04:00: no gap
    const gappy = makeService({ daily: ["06:00-09:00 morning", "12:00-18:00 day"] });
    expect(airings(gappy, "2026-11-23").map((a) => [a.start, a.hours])).toEqual([
      ["2026-11-23T05:00", 3],
      ["2026-11-23T11:00", 6],
    ]);
  });

  it("drops a slot that falls wholly into the skipped hour", () => {
    const service = makeService({ daily: ["00:00 a", "02:00 b", "02:30 c", "06:00 d"] });
    const day = airings(service, "2026-03-29");
    expect(day.map((a) => [a.show, a.start, a.hours])).toEqual([
      ["a", "2026-03-28T23:00", 2], // 00:00 CET until the jump at 03:00 CEST
      ["c", "2026-03-29T01:00", 3], // billed 02:30, starts when the clocks reach 03:00
      ["d", "2026-03-29T04:00", 18],
    ]);
  });

  it("lays a special over the grid and keeps the rest of the cut programme", () => {
    const service = makeService({
      daily: ["00:00 night", "06:00 morning", "18:00 evening"],
      dates: [{ date: "2026-11-24", specials: ["17:00-20:00 concert"] }],
    });
    const day = airings(service, "2026-11-24");
    expect(day.map((a) => [a.show, a.start, a.hours])).toEqual([
      ["night", "2026-11-23T23:00", 6],
      ["morning", "2026-11-24T05:00", 11],
      ["concert", "2026-11-24T16:00", 3],
      ["evening", "2026-11-24T19:00", 4],
    ]);
  });

  it("lets a dated entry replace the day's grid", () => {
    const service = makeService({
      daily: ["00:00 night", "06:00 morning"],
      dates: [{ date: "2026-12-25", slots: ["00:00 carols"] }],
    });
    expect(airings(service, "2026-12-25").map((a) => [a.show, a.hours])).toEqual([["carols", 24]]);
  });

  it("says where each programme comes from: the grid, a dated day's slots, or a special", () => {
    const service = makeService({
      daily: ["00:00 night", "06:00 morning"],
      dates: [
        { date: "2026-11-24", specials: ["08:00-09:00 concert"] },
        { date: "2026-11-25", slots: ["00:00 carols"] },
      ],
    });
    const from = (p: ReturnType<typeof expandSchedule>["programmes"][number]) =>
      `${p.billedDate} ${p.showId} ${p.kind} ${p.source.origin.field}`;
    expect(
      expandSchedule(
        service,
        "radio.example",
        "2026-11-24",
        "2026-11-25",
        episodesOf(service),
      ).programmes.map(from),
    ).toEqual([
      "2026-11-24 night grid grid[0].slots[0]",
      "2026-11-24 morning grid grid[0].slots[1]",
      "2026-11-24 concert special dates[0].specials[0]",
      "2026-11-24 morning grid grid[0].slots[1]",
      "2026-11-25 carols dated dates[1].slots[0]",
    ]);
  });

  it("reports overlapping slots once, naming both, and lays nothing out", () => {
    const service = makeService({ daily: ["06:00-10:00 morning", "09:00 day"] });
    const { programmes, overlaps } = expandSchedule(
      service,
      "radio.example",
      "2026-11-23",
      "2026-11-25",
      episodesOf(service),
    );
    expect(programmes).toEqual([]);
    expect(overlaps.map(overlapProblem)).toEqual([
      {
        file: "schedules/test.yaml",
        line: 1,
        column: 1,
        field: "grid[0].slots[1]",
        severity: "error",
        message: "overlaps schedules/test.yaml:1:1 grid[0].slots[0] (on 2026-11-22)",
      },
    ]);
  });

  it("rejects overlapping specials and names both", () => {
    const service = makeService({
      daily: ["00:00 night"],
      dates: [{ date: "2026-11-24", specials: ["17:00-20:00 concert", "19:00-21:00 match"] }],
    });
    const { overlaps } = expandSchedule(
      service,
      "radio.example",
      "2026-11-24",
      "2026-11-24",
      episodesOf(service),
    );
    expect(overlaps.map(({ later, earlier }) => [later.field, earlier.field])).toEqual([
      ["dates[0].specials[1]", "dates[0].specials[0]"],
    ]);
  });

  it("gives stable CRIDs that differ between services and days", () => {
    const service = makeService({ daily: ["00:00 night", "12:00 day"] });
    const first = expandSchedule(
      service,
      "radio.example",
      "2026-11-20",
      "2026-11-26",
      episodesOf(service),
    ).programmes.map((p) => p.crid);
    const again = expandSchedule(
      service,
      "radio.example",
      "2026-11-20",
      "2026-11-26",
      episodesOf(service),
    ).programmes.map((p) => p.crid);
    const other = expandSchedule(
      { ...service, id: "other" },
      "radio.example",
      "2026-11-20",
      "2026-11-26",
      episodesOf({ ...service, id: "other" }),
    ).programmes;
    expect(again).toEqual(first);
    expect(new Set([...first, ...other.map((p) => p.crid)]).size).toBe(first.length * 2);
    expect(first[0]).toBe("crid://radio.example/test/202611192300");
  });
});
