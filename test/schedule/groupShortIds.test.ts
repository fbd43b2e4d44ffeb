import { describe, expect, it } from "vitest";
import { groupShortIdCollisions } from "../../src/schedule/groupShortIds.js";
import { groupShortId } from "../../src/schedule/programmeShortId.js";
import { makeService } from "../fixtures/makeService.js";

describe("group shortIds with shortIds: unique", () => {
  // Two show ids whose group CRIDs hash to one shortId, found by trying show0, show1, …
  const [first, second] = ["show1119", "show5296"];

  it("refuses two groups that would share a shortId, at a slot airing the second show", () => {
    const crid = (show: string) => `crid://radio.example/test/${show}`;
    expect(groupShortId(crid(first))).toBe(groupShortId(crid(second)));
    const service = {
      ...makeService({ daily: [`06:00 ${first}`, `09:00 ${second}`] }),
      shortIds: "unique" as const,
    };
    expect(groupShortIdCollisions([service], "radio.example")).toEqual([
      {
        file: "schedules/test.yaml",
        line: 1,
        column: 1,
        field: "grid[0].slots[1]",
        severity: "error",
        message: `show "${second}" has group ${crid(second)}, whose shortId ${groupShortId(crid(first))} the group ${crid(first)} (schedules/test.yaml:1:1 grid[0].slots[0]) has too (shortIds: unique): give the show another group CRID (group:)`,
      },
    ]);
  });

  it("lets shows share a group CRID, and ignores services whose shortIds are 0", () => {
    const shared = makeService({ daily: ["06:00 a", "09:00 b"] });
    const group = "crid://radio.example/together";
    const shows = Object.fromEntries(
      Object.entries(shared.schedule.shows).map(([id, show]) => [id, { ...show, group }]),
    );
    const unique = {
      ...shared,
      shortIds: "unique" as const,
      schedule: { ...shared.schedule, shows },
    };
    expect(groupShortIdCollisions([unique], "radio.example")).toEqual([]);
    const zero = makeService({ daily: [`06:00 ${first}`, `09:00 ${second}`] });
    expect(groupShortIdCollisions([zero], "radio.example")).toEqual([]);
  });
});
