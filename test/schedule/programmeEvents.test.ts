import { describe, expect, it } from "vitest";
import type { ProgrammeEvent, Service } from "../../src/load/model/broadcaster.js";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import { episodesOf, makeService } from "../fixtures/makeService.js";

const origin = { file: "schedules/test.yaml", line: 4, column: 7, field: "shows.a.events[0]" };

function withEvents(programmeEvents: boolean, offset: number): Service {
  const base = makeService({ daily: ["06:00 a", "10:00 b"] });
  const event: ProgrammeEvent = {
    name: { short: "News", long: "News" },
    offset,
    duration: 5,
    every: undefined,
    origin,
  };
  const shows = { ...base.schedule.shows, a: { ...base.schedule.shows.a, events: [event] } };
  return { ...base, programmeEvents, schedule: { ...base.schedule, shows } } as Service;
}

const expand = (service: Service) =>
  expandSchedule(service, "radio.example", "2026-11-23", "2026-11-23", episodesOf(service));

describe("programmeEvents: false (for consumers that cannot read programmeEvent)", () => {
  it("publishes no events, where true publishes them", () => {
    const events = (service: Service) => expand(service).programmes.flatMap((p) => p.events);
    expect(events(withEvents(true, 30)).length).toBeGreaterThan(0);
    expect(events(withEvents(false, 30))).toEqual([]);
  });

  it("still reports an event that does not fit", () => {
    // 06:00-10:00 is four hours long: an event at 5 h does not fit.
    const { problems } = expand(withEvents(false, 300));
    expect(problems.map((p) => p.field)).toEqual(["shows.a.events[0]"]);
  });
});
