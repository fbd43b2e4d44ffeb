import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Service } from "../../src/load/model/broadcaster.js";
import { rollCheck } from "../../src/schedule/rollCheck.js";
import { publishedDays, scheduleBroadcaster } from "../../src/schedule/scheduleBroadcaster.js";
import { selectProgrammeDay } from "../../src/schedule/selectProgrammeDay.js";
import type { ServiceCheck } from "../../src/schedule/serviceCheck.js";
import { loadedService } from "../fixtures/loadedService.js";
import { makeProvider } from "../fixtures/makeProvider.js";

const DAY_MS = 86_400_000;
const MONDAY = Date.parse("2026-11-23T08:00:00Z");
const provider = makeProvider();

/** A daily grid with a show whose German name an episode renaming it keeps: a warning. */
const SCHEDULE = `shows:
  morning:
    name: { long: The Morning }
    translations:
      de: { name: { long: Der Morgen } }
  music:
    name: { long: Music All Day }
  late:
    name: { long: Late }
grid:
  - days: daily
    slots:
      - { start: "06:00", show: morning }
      - { start: "10:00", show: music }
      - { start: "22:30", end: "01:00", show: late }
      - { start: "01:00", show: music }
`;

/** Episodes renaming the morning show on each of `dates`: a warning on each. */
const renamed = (dates: string[]) =>
  `episodes:\n${dates.map((date) => `  - { date: ${date}, show: morning, name: { long: "Morning of ${date}" } }\n`).join("")}`;

function checkOn(service: Service, now: number): ServiceCheck {
  const report = scheduleBroadcaster({ provider, services: [service] }, now);
  const check = report.checks.get(service);
  if (!check) throw new Error(JSON.stringify(report.problems));
  return check;
}

function rollOn(service: Service, earlier: ServiceCheck, now: number) {
  const { span, dates } = publishedDays(provider.timeZone, now);
  return rollCheck(service, earlier, {
    cridAuthority: provider.cridAuthority,
    span,
    dates,
    marginHours: provider.piMarginHours,
  });
}

describe("a check rolled on day by day", () => {
  it("finds what a full check of the later days finds, and lays out the new days as the full layout does", () => {
    // Monday's span is 14 November to 2 December; Tuesday's 15 November to 3 December. Warnings on
    // the day that leaves, a day kept, the new day and a day beyond both.
    const { service } = loadedService(SCHEDULE, {
      "w.yaml": renamed(["2026-11-14", "2026-11-20", "2026-12-03", "2026-12-09"]),
    });
    const monday = checkOn(service, MONDAY);
    const translated = (check: ServiceCheck) =>
      check.problems.filter((p) => p.message.includes("translation")).map((p) => p.line);
    // Each episode on its own line after `episodes:`; those beyond the days are warned of too.
    expect(translated(monday)).toEqual([2, 3, 4, 5]);
    for (const later of [1, 2, 3]) {
      const now = MONDAY + later * DAY_MS;
      const rolled = rollOn(service, monday, now);
      if (!("check" in rolled)) throw new Error(rolled.unsure);
      expect(rolled.check).toEqual(checkOn(service, now));
      // The new published days' documents list what the whole span's layout gives them.
      const full = scheduleBroadcaster({ provider, services: [service] }, now).scheduled;
      const programmes = full?.services[0]?.programmes() ?? [];
      expect(rolled.documentDates).toHaveLength(later);
      for (const date of rolled.documentDates) {
        const day = (from: typeof programmes) => {
          const {
            programmes: listed,
            scopeStart,
            scopeEnd,
          } = selectProgrammeDay(from, service.timeZone, date, provider.piMarginHours);
          const what = listed.map(({ crid, start, end, content, eventIds }) => ({
            ...{ crid, start, end, name: content.name, eventIds },
          }));
          return { what, scopeStart, scopeEnd };
        };
        expect(day([...rolled.programmes])).toEqual(day(programmes));
      }
    }
    // The warning of the day that left is gone, the new day's is there.
    const tuesday = rollOn(service, monday, MONDAY + DAY_MS);
    expect("check" in tuesday && translated(tuesday.check)).toEqual([3, 4, 5]);
  });

  it("is unsure, so the service is laid out in full, when a CRID given on a new day was given on a kept one", () => {
    const { service } = loadedService(SCHEDULE, {
      "w.yaml": `episodes:
  - { date: 2026-11-20, show: music, start: "10:00", crid: "crid://radio.example/x/1" }
  - { date: 2026-12-03, show: music, start: "10:00", crid: "crid://radio.example/x/1" }
`,
    });
    const monday = checkOn(service, MONDAY);
    expect(monday.problems).toEqual([]);
    expect(rollOn(service, monday, MONDAY + DAY_MS)).toEqual({ unsure: "its CRIDs collide" });
    const full = scheduleBroadcaster({ provider, services: [service] }, MONDAY + DAY_MS);
    expect(full.brokenServices).toEqual([service.id]);
  });

  it("is unsure when a day has no grid slots (a programme could run across it) or a slot starts on the next day (a clock change at midnight)", () => {
    const gaps = loadedService(
      SCHEDULE.replace("days: daily", "days: [mon, tue, wed, thu, fri, sat]"),
    ).service;
    const check = checkOn(gaps, MONDAY);
    expect(rollOn(gaps, check, MONDAY + DAY_MS)).toEqual({
      unsure: "2026-11-15 has no grid slots",
    });
    // Nuuk springs from 23:00 to midnight on 27 March 2027: a 23:30 slot starts on the 28th.
    const nuuk = loadedService(SCHEDULE.replace('"22:30", end: "01:00"', '"23:30", end: "01:00"'));
    const inNuuk = { ...nuuk.service, timeZone: "America/Nuuk" };
    const nuukNow = Date.parse("2027-03-18T12:00:00Z");
    const before = checkOn(inNuuk, nuukNow);
    expect(rollOn(inNuuk, before, nuukNow + DAY_MS)).toEqual({
      unsure: "a slot of 2027-03-27 starts on another day",
    });
  });

  it("is unsure when a dated day leaves the span or the days moved back", () => {
    const { service } = loadedService(`${SCHEDULE}dates:\n  - { date: 2026-11-14, like: sun }\n`);
    const monday = checkOn(service, MONDAY);
    expect(rollOn(service, monday, MONDAY + DAY_MS)).toEqual({
      unsure: "dated day 2026-11-14 left the span",
    });
    expect("unsure" in rollOn(service, monday, MONDAY - DAY_MS)).toBe(true);
  });
});

describe("a check rolled on, over generated schedules", () => {
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 30))
    .map(([h, m]) => `${String(h).padStart(2, "0")}:${m === 0 ? "00" : "30"}`);
  // The morning and late shows air once a grid day (what episodes name); music fills in.
  const grid = fc
    .uniqueArray(time, { minLength: 2, maxLength: 5 })
    .chain((times) =>
      fc.tuple(fc.constant(times), fc.option(time, { nil: undefined }), fc.boolean()),
    )
    .map(([times, lateEnd, endless]) =>
      times.map((start, i) => {
        const what = i === 0 ? "morning" : i === 1 ? "late" : "music";
        const end = i === 1 && !endless && lateEnd !== start ? `, end: "${lateEnd}"` : "";
        return `{ start: "${start}", show: ${what}${end} }`;
      }),
    );
  // Days as offsets from the first build's day, so that they fall inside and beside the spans.
  const day = fc.integer({ min: -20, max: 20 });
  // A November week, and weeks with clock changes: Zurich at 02:00, Nuuk's across midnight.
  const first = fc.constantFrom(
    { now: MONDAY, timeZone: "Europe/Zurich" },
    { now: Date.parse("2027-03-22T12:00:00Z"), timeZone: "Europe/Zurich" },
    { now: Date.parse("2027-03-20T12:00:00Z"), timeZone: "America/Nuuk" },
    { now: Date.parse("2026-10-20T12:00:00Z"), timeZone: "America/Nuuk" },
  );
  const dateOf = (now: number, offset: number) =>
    new Date(now + offset * DAY_MS).toISOString().slice(0, 10);
  const dated = fc.oneof(
    fc.constant("like: sun"),
    fc
      .tuple(time, time)
      .filter(([from, to]) => from !== to)
      .map(([from, to]) => `specials: [{ start: "${from}", end: "${to}", show: music }]`),
    time.map((at) => `slots: [{ start: "${at}", show: music }]`),
  );
  const schedule = fc.record({
    first,
    weekdays: fc.uniqueArray(fc.constantFrom("mon", "tue", "wed", "thu", "fri", "sat", "sun"), {
      minLength: 1,
    }),
    grid,
    dated: fc.uniqueArray(fc.tuple(day, dated), { selector: ([date]) => date, maxLength: 3 }),
    episodes: fc.uniqueArray(fc.tuple(day, fc.constantFrom("morning", "late"), fc.boolean()), {
      selector: ([date, what]) => `${date} ${what}`,
      maxLength: 12,
    }),
  });
  type Generated = typeof schedule extends fc.Arbitrary<infer T> ? T : never;
  const yamlOf = ({ first, weekdays, grid, dated, episodes }: Generated) => ({
    schedule: [
      SCHEDULE.slice(0, SCHEDULE.indexOf("grid:")),
      `grid:\n  - days: [${weekdays.join(", ")}]\n    slots:\n`,
      ...grid.map((slot) => `      - ${slot}\n`),
      dated.length > 0 ? "dates:\n" : "",
      ...dated.map(([date, what]) => `  - { date: ${dateOf(first.now, date)}, ${what} }\n`),
    ].join(""),
    episodes: [
      "episodes:\n",
      ...episodes.map(
        ([offset, what, rename]) =>
          `  - { date: ${dateOf(first.now, offset)}, show: ${what}${rename ? `, name: { long: "${what} ${offset}" }` : ""} }\n`,
      ),
    ].join(""),
  });

  it("equals the full check whenever it is sure, and is sure of many", () => {
    let rolled = 0;
    let tried = 0;
    fc.assert(
      fc.property(schedule, fc.integer({ min: 1, max: 3 }), (generated, later) => {
        const yaml = yamlOf(generated);
        let service: Service;
        const { timeZone } = generated.first;
        try {
          service = loadedService(yaml.schedule, { "e.yaml": yaml.episodes }, { timeZone }).service;
        } catch {
          return; // a generated schedule the loader refuses: nothing to roll on
        }
        const earlier = checkOrNothing(service, generated.first.now);
        if (!earlier) return;
        tried++;
        const now = generated.first.now + later * DAY_MS;
        const roll = rollOn(service, earlier, now);
        if (!("check" in roll)) return;
        rolled++;
        const full = scheduleBroadcaster({ provider, services: [service] }, now);
        expect(full.checks.get(service)).toEqual(roll.check);
        const programmes = full.scheduled?.services[0]?.programmes() ?? [];
        for (const date of roll.documentDates) {
          const listed = (from: readonly (typeof programmes)[number][]) =>
            selectProgrammeDay(from, service.timeZone, date, provider.piMarginHours).programmes.map(
              ({ crid, start, end, content }) => [crid, start, end, content.name?.long],
            );
          expect(listed(roll.programmes)).toEqual(listed(programmes));
        }
      }),
      { numRuns: 300, seed: 23 },
    );
    // The draw must give rolls to compare, or the property proves little.
    expect(rolled).toBeGreaterThan(30);
    expect(rolled).toBeGreaterThan(tried / 3);
  });
});

function checkOrNothing(service: Service, now: number): ServiceCheck | undefined {
  return scheduleBroadcaster({ provider, services: [service] }, now).checks.get(service);
}
