import { describe, expect, it } from "vitest";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import { selectProgrammeDay } from "../../src/schedule/selectProgrammeDay.js";
import { episodesOf, makeService } from "../fixtures/makeService.js";

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);

describe("selectProgrammeDay", () => {
  const service = makeService({
    daily: ["00:00 night", "06:00 morning", "12:00 day", "20:00 evening", "23:00 late"],
  });
  const programmes = expandSchedule(
    service,
    "radio.example",
    "2026-11-22",
    "2026-11-24",
    episodesOf(service),
  ).programmes;

  it("lists the day's programmes plus the neighbours within the margin", () => {
    const day = selectProgrammeDay(programmes, "Europe/Zurich", "2026-11-23", 6);
    expect(day.programmes.map((p) => `${p.billedDate} ${p.showId}`)).toEqual([
      "2026-11-22 evening", // 20:00, four hours before midnight
      "2026-11-22 late",
      "2026-11-23 night",
      "2026-11-23 morning",
      "2026-11-23 day",
      "2026-11-23 evening",
      "2026-11-23 late",
      "2026-11-24 night",
    ]);
    expect(iso(day.scopeStart)).toBe("2026-11-22T19:00");
    expect(iso(day.scopeEnd)).toBe("2026-11-24T05:00");
  });

  it("with no margin still lists the programme on air at midnight", () => {
    const day = selectProgrammeDay(programmes, "Europe/Zurich", "2026-11-23", 0);
    expect(day.programmes.map((p) => `${p.billedDate} ${p.showId}`)).toEqual([
      "2026-11-23 night",
      "2026-11-23 morning",
      "2026-11-23 day",
      "2026-11-23 evening",
      "2026-11-23 late",
    ]);
  });

  it("lists the programme on air at midnight even when it started before the margin", () => {
    const nights = makeService({ daily: ["12:00 day", "22:00-02:00 late", "02:00 night"] });
    const all = expandSchedule(
      nights,
      "radio.example",
      "2026-11-22",
      "2026-11-24",
      episodesOf(nights),
    ).programmes;
    const day = selectProgrammeDay(all, "Europe/Zurich", "2026-11-23", 1);
    expect(day.programmes.map((p) => `${p.billedDate} ${p.showId}`)).toEqual([
      "2026-11-22 late", // 22:00, two hours before midnight and still on air
      "2026-11-23 night",
      "2026-11-23 day",
      "2026-11-23 late",
    ]);
    expect(iso(day.scopeStart)).toBe("2026-11-22T21:00");
    expect(iso(day.scopeEnd)).toBe("2026-11-24T01:00");
  });

  it("covers the whole day in scope even when nothing is on air", () => {
    const day = selectProgrammeDay([], "Europe/Zurich", "2026-03-29", 6);
    expect(iso(day.scopeStart)).toBe("2026-03-28T23:00");
    expect(iso(day.scopeEnd)).toBe("2026-03-29T22:00"); // a 23-hour day
  });
});
