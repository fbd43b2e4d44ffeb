import { describe, expect, it } from "vitest";
import { findDeadAir } from "../../../src/load/checks/findDeadAir.js";
import { makeService } from "../../fixtures/makeService.js";

const gaps = (fixture: Parameters<typeof makeService>[0]) =>
  findDeadAir(makeService(fixture).schedule).map((p) => `${p.field}: ${p.message}`);

describe("findDeadAir", () => {
  it("finds nothing when every slot runs until the next", () => {
    expect(gaps({ daily: ["00:00 night", "06:00 morning", "20:00 evening"] })).toEqual([]);
  });

  it("finds a slot that ends before the next starts, once for all the days it recurs", () => {
    expect(gaps({ daily: ["06:00-09:00 morning", "12:00 day"] })).toEqual([
      "grid[0].slots[0]: dead air from 09:00 to 12:00 on mon, tue, wed, thu, fri, sat, sun: this slot ends before the next one starts",
    ]);
  });

  it("looks past midnight for the next day's first slot", () => {
    expect(gaps({ daily: ["06:00 day", "22:00-02:00 night"] })).toEqual([
      "grid[0].slots[1]: dead air from 02:00 to 06:00 on mon, tue, wed, thu, fri, sat, sun: this slot ends before the next one starts",
    ]);
  });

  it("checks a dated day's own slots against the grid around it", () => {
    const found = gaps({
      daily: ["00:00 night", "06:00 day"],
      dates: [{ date: "2026-12-24", slots: ["00:00 night", "06:00-18:00 day"] }],
    });
    expect(found).toEqual([
      "dates[0].slots[1]: dead air from 18:00 to 00:00 on 2026-12-24: this slot ends before the next one starts",
    ]);
  });

  it("checks the grid day before a dated day against the dated day's first slot", () => {
    const found = gaps({
      daily: ["00:00 night", "06:00 day", "22:00-00:00 late"],
      dates: [{ date: "2026-12-25", slots: ["01:00 night"] }],
    });
    expect(found).toEqual([
      "grid[0].slots[2]: dead air from 00:00 to 01:00 on 2026-12-24: this slot ends before the next one starts",
    ]);
  });
});
