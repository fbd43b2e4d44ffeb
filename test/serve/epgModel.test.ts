import { describe, expect, it } from "vitest";
import type { Service, Slot } from "../../src/load/model/broadcaster.js";
import type { InputProblem } from "../../src/load/text/inputProblem.js";
import { scheduleBroadcaster } from "../../src/schedule/scheduleBroadcaster.js";
import { type EpgProgramme, epgModel } from "../../src/serve/epgModel.js";
import { type Weekday, weekdayNames } from "../../src/time/plainDate.js";
import { makeProvider } from "../fixtures/makeProvider.js";
import { makeService } from "../fixtures/makeService.js";

const MORNING_AT = { file: "schedules/test.yaml", line: 7, column: 9 };

/** 00:00 night, 06:00–08:00 morning (then nothing until 09:00), 09:00 day; a special, a dated day. */
function gappyService(): Service {
  const service = makeService({
    daily: ["00:00 night", "06:00-08:00 morning", "09:00 day"],
    dates: [
      { date: "2026-11-24", specials: ["12:00-14:00 concert"] },
      { date: "2026-11-25", slots: ["02:00 carols"] },
    ],
  });
  // The model is read-only: a new service with the morning slot's origin, name and logo changed.
  const week = Object.fromEntries(
    weekdayNames.map((day) => [
      day,
      service.schedule.week[day].map((slot, i) =>
        i === 1 ? { ...slot, origin: { ...MORNING_AT, field: "grid[0].slots[1]" } } : slot,
      ),
    ]),
  ) as Record<Weekday, Slot[]>;
  return {
    ...service,
    name: { short: "Test", long: "The Test Radio of the Aare Valley" },
    logos: [
      {
        url: "https://img.example/32.png",
        width: 32,
        height: 32,
        type: "logo_colour_square",
        mimeValue: undefined,
      },
    ],
    schedule: { ...service.schedule, week },
  };
}

function model(now: string, problems: InputProblem[] = [], services = [gappyService()]) {
  const at = Date.parse(now);
  const broadcaster = { provider: makeProvider(), services };
  const { scheduled } = scheduleBroadcaster(broadcaster, at);
  if (!scheduled) throw new Error("the test service does not lay out");
  return epgModel({
    scheduled,
    problems,
    now: at,
    clockFixed: true,
    devKey: undefined,
  });
}

const rowOf = (epg: ReturnType<typeof model>, date: string) => {
  const row = epg.day(date)?.rows[0];
  if (!row) throw new Error(`no row for ${date}`);
  return row;
};

describe("the EPG model", () => {
  it("lays out a day's programmes with dead air between them, in local 24-hour times", () => {
    const row = rowOf(model("2026-11-23T08:00:00Z"), "2026-11-23");
    expect(row.blocks.map((b) => `${b.type} ${b.time}`)).toEqual([
      "programme 00:00–06:00",
      "programme 06:00–08:00",
      "gap 08:00–09:00",
      "programme 09:00–24:00",
    ]);
    expect(row.hours).toBe(24);
    expect(row.offsets).toBe("UTC+01:00");
    expect(row.piPath).toMatch(/\/test\/20261123_PI\.xml$/);
  });

  it("links each day to the PI document under the service's own FQDN and serviceIdentifier", () => {
    const radiodns = { fqdn: "own.radio.example", serviceIdentifier: "mine" };
    const epg = model("2026-11-23T08:00:00Z", [], [{ ...gappyService(), radiodns }]);
    expect(rowOf(epg, "2026-11-23").piPath).toBe(
      "/radiodns/spi/3.1/id/own.radio.example/mine/20261123_PI.xml",
    );
  });

  it("marks specials and dated days, and the parts of programmes that cross midnight", () => {
    const epg = model("2026-11-23T08:00:00Z");
    const programmes = (date: string) =>
      rowOf(epg, date).blocks.filter((b): b is EpgProgramme => b.type === "programme");
    expect(programmes("2026-11-24").map((p) => `${p.showId} ${p.airing}`)).toEqual([
      "night grid",
      "morning grid",
      "day grid",
      "concert special",
      "day grid",
    ]);
    const christmas = programmes("2026-11-25");
    expect(christmas.map((p) => `${p.showId} ${p.airing} ${p.time}`)).toEqual([
      "day grid 14:00 (2026-11-24)–02:00",
      "carols dated 02:00–24:00",
    ]);
    expect([christmas[0]?.fromPreviousDay, christmas[0]?.intoNextDay]).toEqual([true, false]);
    const evening = programmes("2026-11-24").at(-1);
    expect(evening?.time).toBe("14:00–02:00 (2026-11-25)");
    expect([evening?.fromPreviousDay, evening?.intoNextDay]).toEqual([false, true]);
  });

  it("draws the night the clocks go back as 25 real hours with 02:00 twice, and the spring night as 23", () => {
    const autumn = rowOf(model("2026-10-25T09:00:00Z"), "2026-10-25");
    expect(autumn.hours).toBe(25);
    expect(autumn.offsets).toBe("UTC+02:00 → UTC+01:00");
    expect(autumn.ticks.map((t) => t.label).slice(0, 5)).toEqual([
      "00:00",
      "01:00",
      "02:00",
      "02:00",
      "03:00",
    ]);
    const spring = rowOf(model("2026-03-29T09:00:00Z"), "2026-03-29");
    expect(spring.hours).toBe(23);
    expect(spring.ticks.map((t) => t.label).slice(0, 3)).toEqual(["00:00", "01:00", "03:00"]);
  });

  it("puts each warning next to the slot it points at and under its service; others stand alone", () => {
    const deadAir: InputProblem = {
      ...MORNING_AT,
      field: "grid[0].slots[1]",
      severity: "warning",
      message: "dead air from 08:00 to 09:00 on mon: this slot ends before the next one starts",
    };
    const provider: InputProblem = {
      file: "provider.yaml",
      line: 3,
      column: 1,
      field: "logos",
      severity: "warning",
      message: "no logo at 600x600",
    };
    const epg = model("2026-11-23T08:00:00Z", [deadAir, provider]);
    const text =
      "schedules/test.yaml:7:9 grid[0].slots[1]: warning: dead air from 08:00 to 09:00 on mon: this slot ends before the next one starts";
    const blocks = rowOf(epg, "2026-11-23").blocks.filter(
      (b): b is EpgProgramme => b.type === "programme",
    );
    expect(blocks.map((b) => b.problems)).toEqual([[], [text], []]);
    expect(epg.site.services[0]?.problems).toEqual([text]);
    expect(epg.site.problems).toEqual(["provider.yaml:3:1 logos: warning: no logo at 600x600"]);
  });

  it("shows what a receiver gets: names cut to 8 and 16 characters, a logo or none at each size", () => {
    const [service] = model("2026-11-23T08:00:00Z").site.services;
    expect(service?.receiver.short).toBe("Test");
    expect(service?.receiver.medium).toBe("The Test Radio…");
    expect(service?.receiver.logos.map((l) => `${l.size} ${l.url ?? "none"}`)).toEqual([
      "32x32 https://img.example/32.png",
      "112x32 none",
      "128x128 none",
      "320x240 none",
      "600x600 none",
    ]);
  });

  it("names a programme's genres by their term's label, as receivers show them, not by the URN", () => {
    const service = gappyService();
    const indie = "urn:tva:metadata:cs:ContentCS:2011:3.6.4.14.6";
    const talk = "urn:tva:metadata:cs:FormatCS:2011:2.1.4";
    const genres = [
      { href: indie, name: "Indie stuff" },
      { href: talk, name: "Chat", type: "secondary" as const },
    ];
    const shows = { ...service.schedule.shows, morning: { name: { long: "Morning" }, genres } };
    const epg = model(
      "2026-11-23T08:00:00Z",
      [],
      [{ ...service, schedule: { ...service.schedule, shows } }],
    );
    const blocks = rowOf(epg, "2026-11-23").blocks.filter(
      (b): b is EpgProgramme => b.type === "programme",
    );
    expect(blocks.find((b) => b.showId === "morning")?.genres).toEqual([
      { label: "Alternative / Indie", href: indie },
      { label: "Documentary", href: talk },
    ]);
    expect(blocks.find((b) => b.showId === "day")?.genres).toEqual([]);
  });

  it("offers the API window, today±7, and no day beyond it", () => {
    const epg = model("2026-11-23T08:00:00Z");
    expect(epg.site.days).toHaveLength(15);
    expect(epg.site.days[7]?.date).toBe("2026-11-23");
    expect(epg.site.days[7]?.label).toBe("Mon 23.11.");
    expect(epg.day("2026-11-30")).toBeDefined();
    expect(epg.day("2026-12-01")).toBeUndefined();
  });
});
