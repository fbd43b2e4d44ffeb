import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ProgrammeEvent, Service, Show } from "../../src/load/model/broadcaster.js";
import {
  defaultShortIdSlot,
  SHORT_ID_SLOTS,
  ShortIdSlots,
} from "../../src/load/model/shortIdSlot.js";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import {
  eventShortId,
  groupShortId,
  programmeShortId,
  SHORT_ID_CYCLE,
} from "../../src/schedule/programmeShortId.js";
import { addDays } from "../../src/time/plainDate.js";
import { episodesOf, makeService } from "../fixtures/makeService.js";

const MINUTE = 60_000;
const MAX_SHORT_ID = 2 ** 24 - 1;
const SIX_MONTHS_AT_MOST = 184 * 24 * 60;

describe("the shortId formulas", () => {
  it("are 24-bit shortCRIDs, never 0, in every slot", () => {
    for (const start of [
      0,
      Date.parse("2026-11-23T05:00:00Z"),
      Date.parse("9998-12-31T23:59:00Z"),
    ]) {
      for (const slot of [0, SHORT_ID_SLOTS - 1]) {
        for (const id of [programmeShortId(slot, start), eventShortId(slot, start)]) {
          expect(id).toBeGreaterThan(0);
          expect(id).toBeLessThanOrEqual(MAX_SHORT_ID);
        }
      }
    }
    expect(programmeShortId(SHORT_ID_SLOTS - 1, -MINUTE)).toBeLessThanOrEqual(MAX_SHORT_ID);
    expect(groupShortId("crid://radio.example/pop/morning")).toBeGreaterThan(0);
  });

  it("give each minute of six months its own id, per slot and kind, and no two ranges meet", () => {
    const start = Date.parse("2026-11-23T05:00:00Z");
    expect(SHORT_ID_CYCLE).toBeGreaterThanOrEqual(SIX_MONTHS_AT_MOST);
    expect(programmeShortId(3, start + 59_999)).toBe(programmeShortId(3, start));
    expect(programmeShortId(3, start + MINUTE)).toBe(programmeShortId(3, start) + 1);
    expect(programmeShortId(3, start + SHORT_ID_CYCLE * MINUTE)).toBe(programmeShortId(3, start));
    // The ranges: groups, then programmes and events of each slot, one after another.
    // Minute 0 of the cycle (1970-01-01T00:00Z) has the lowest id of its range.
    const lowest = (f: (slot: number, at: number) => number, slot: number) => f(slot, 0);
    const ranges = [[1, SHORT_ID_CYCLE]];
    for (let slot = 0; slot < SHORT_ID_SLOTS; slot++) {
      for (const f of [programmeShortId, eventShortId]) {
        ranges.push([lowest(f, slot), lowest(f, slot) + SHORT_ID_CYCLE - 1]);
      }
    }
    ranges.forEach(([from = 0], i) => {
      if (i > 0) expect(from).toBe((ranges[i - 1]?.[1] ?? 0) + 1);
    });
    expect(ranges.at(-1)?.[1]).toBeLessThanOrEqual(MAX_SHORT_ID);
  });
});

describe("shortIdSlot", () => {
  const at = { file: "services/x.yaml", line: 1, column: 1, field: "id" };
  const HOST = "rdns.test.example";

  it("refuses a second service in a slot it gives, naming the first and a free slot", () => {
    const slots = new ShortIdSlots();
    expect(
      slots.take({ id: "news", shortIdSlot: 3 }, HOST, "services/news.yaml", at),
    ).toBeUndefined();
    expect(slots.take({ id: "pop", shortIdSlot: 3 }, HOST, "services/pop.yaml", at)?.message).toBe(
      `shortIdSlot 3, as service "news" (services/news.yaml) has under ${HOST}, so their programmes would share shortIds (shortIds: unique): give one of them shortIdSlot: 0 (free: 0, 1, 2, 4, 5, 6, 7, 8, …)`,
    );
    // TS 102 818 §5.2.2: unique within one SPI service (one FQDN): another FQDN has its own slots.
    expect(
      slots.take({ id: "pop", shortIdSlot: 3 }, "other.test.example", "services/pop.yaml", at),
    ).toBeUndefined();
  });

  it("gives services that choose no slot their id's slot, or the next free one with a warning to pin it", () => {
    const slots = new ShortIdSlots();
    // news and pop hash to the same slot; pop's file is read first, news still gets its id's slot.
    expect(defaultShortIdSlot("pop")).toBe(defaultShortIdSlot("news"));
    expect(slots.take({ id: "pop" }, HOST, "services/pop.yaml", at)).toBeUndefined();
    expect(slots.take({ id: "news" }, HOST, "services/news.yaml", at)).toBeUndefined();
    const { slots: settled, problems } = slots.settle();
    const preferred = defaultShortIdSlot("news");
    expect(settled).toEqual(
      new Map([
        ["news", preferred],
        ["pop", (preferred + 1) % SHORT_ID_SLOTS],
      ]),
    );
    expect(problems.map((p) => [p.service, p.problem.severity, p.problem.message])).toEqual([
      [
        "pop",
        "warning",
        `its id gives shortIdSlot ${preferred}, which service "news" has: it takes ${(preferred + 1) % SHORT_ID_SLOTS}, the next free one of ${HOST}; pin it (shortIdSlot: ${(preferred + 1) % SHORT_ID_SLOTS}) so that a service added later cannot move it and change its shortIds`,
      ],
    ]);
  });

  it("never collides for 31 services of one FQDN, refuses a 32nd, and takes 62 under two FQDNs", () => {
    const slots = new ShortIdSlots();
    for (let i = 0; i < 32; i++)
      slots.take({ id: `s${String(i).padStart(2, "0")}` }, HOST, "f", at);
    for (let i = 0; i < 31; i++) slots.take({ id: `t${i}` }, "other.test.example", "f", at);
    const { slots: settled, problems } = slots.settle();
    const hostSlots = [...settled].filter(([id]) => id.startsWith("s")).map(([, slot]) => slot);
    expect(new Set(hostSlots).size).toBe(31);
    expect([...settled].filter(([id]) => id.startsWith("t"))).toHaveLength(31);
    expect(problems.filter((p) => p.problem.severity === "error")).toEqual([
      {
        service: "s31",
        problem: {
          ...at,
          severity: "error",
          message: `has shortIds: unique, but the 31 shortIdSlots of ${HOST} are taken: give this service shortIds: zero, or its own radiodns fqdn`,
        },
      },
    ]);
  });
});

const zone = fc.constantFrom(
  "Europe/Zurich",
  "America/New_York",
  "Australia/Lord_Howe", // clocks move by 30 minutes
  "Asia/Kathmandu", // UTC+05:45
  "Pacific/Chatham", // UTC+12:45 / +13:45
);
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);
/** Days around both 2026 clock changes in Europe and America, and an ordinary one. */
const today = fc.constantFrom("2026-03-08", "2026-03-29", "2026-10-25", "2026-11-01", "2026-11-23");
const origin = (field: string) => ({ file: "schedules/x.yaml", line: 2, column: 3, field });

/** An event of 1 to 5 minutes at a minute of the programme's first hour. */
const event = fc.record({
  offset: fc.integer({ min: 0, max: 59 }),
  duration: fc.integer({ min: 1, max: 5 }),
});

const serviceArbitrary = fc.record({
  timeZone: zone,
  starts: fc.uniqueArray(time, { minLength: 1, maxLength: 20 }),
  special: fc.option(fc.tuple(time, time)),
  events: fc.array(event, { maxLength: 3 }),
});

interface ServiceDraft {
  timeZone: string;
  starts: string[];
  special: [string, string] | null;
  events: { offset: number; duration: number }[];
}

function uniqueService(id: string, slot: number, draft: ServiceDraft, day: string): Service {
  const { timeZone, starts, special } = draft;
  const daily = [...starts].sort().map((start, i) => `${start} show${i % 3}`);
  const dates =
    special && special[0] !== special[1]
      ? [{ date: day, specials: [`${special[0]}-${special[1]} special`] }]
      : [];
  const base = makeService({ timeZone, daily, dates });
  // Events at distinct offsets, as a service with unique shortIds must have them.
  const distinct: ProgrammeEvent[] = draft.events
    .filter((e, i) => draft.events.findIndex((other) => other.offset === e.offset) === i)
    .map((e, i) => ({
      name: { short: "News", long: "News" },
      ...e,
      every: undefined,
      origin: origin(`events[${i}]`),
    }));
  const shows: Record<string, Show> = Object.fromEntries(
    Object.entries(base.schedule.shows).map(([showId, show]) => [
      showId,
      showId === "show0" && distinct.length > 0 ? { ...show, events: distinct } : show,
    ]),
  );
  return {
    ...base,
    id,
    shortIds: "unique",
    shortIdSlot: slot,
    schedule: { ...base.schedule, shows },
  };
}

describe("shortIds: unique across the services of one provider, over every published window", () => {
  it("gives programmes, events and groups of all services distinct ids, never 0, the same from every window", () => {
    let events = 0;
    fc.assert(
      fc.property(
        fc.array(serviceArbitrary, { minLength: 2, maxLength: 4 }),
        fc.uniqueArray(fc.integer({ min: 0, max: SHORT_ID_SLOTS - 1 }), {
          minLength: 4,
          maxLength: 4,
        }),
        today,
        fc.integer({ min: 1, max: 8 }),
        (inputs, slots, day, shift) => {
          const services = inputs.map((input, i) =>
            uniqueService(`s${i}`, slots[i] ?? 0, input, day),
          );
          const expand = (service: Service, from: string) =>
            expandSchedule(
              service,
              "radio.example",
              addDays(from, -8),
              addDays(from, 8),
              episodesOf(service),
            );
          const owner = new Map<number, string>();
          const claim = (id: number, what: string) => {
            expect(id).toBeGreaterThan(0);
            expect(id).toBeLessThanOrEqual(MAX_SHORT_ID);
            const earlier = owner.get(id);
            if (earlier !== undefined) expect(earlier).toBe(what);
            owner.set(id, what);
          };
          for (const service of services) {
            const { programmes, problems } = expand(service, day);
            // An event that does not fit a short airing is left out of it (and reported).
            expect(problems.filter((p) => !p.message.startsWith("does not fit"))).toEqual([]);
            expect(programmes.length).toBeGreaterThan(0);
            for (const p of programmes) {
              claim(p.shortId, p.crid);
              // A group's id is its CRID's, wherever it appears.
              claim(p.groupShortId, p.groupCrid);
              for (const e of p.eventIds) claim(e.shortId, e.crid);
              events += p.eventIds.length;
            }
            // A later night's build: what both windows publish has the same ids.
            const later = new Map<string, number>();
            for (const p of expand(service, addDays(day, shift)).programmes) {
              later.set(p.crid, p.shortId);
              for (const e of p.eventIds) later.set(e.crid, e.shortId);
            }
            for (const p of programmes) {
              for (const { crid, shortId } of [p, ...p.eventIds]) {
                if (later.has(crid)) expect(later.get(crid)).toBe(shortId);
              }
            }
          }
        },
      ),
      { numRuns: 120 },
    );
    expect(events).toBeGreaterThan(0);
  });

  it("keeps every event's CRID when another event is added before it", () => {
    const withEvents = (offsets: number[]) => {
      const service = uniqueService(
        "s0",
        0,
        {
          timeZone: "Europe/Zurich",
          starts: ["06:00"],
          special: null,
          events: offsets.map((offset) => ({ offset, duration: 5 })),
        },
        "2026-11-23",
      );
      const [programme] = expandSchedule(
        service,
        "radio.example",
        "2026-11-23",
        "2026-11-23",
        episodesOf(service),
      ).programmes;
      return programme?.eventIds ?? [];
    };
    const before = withEvents([30, 45]);
    const after = withEvents([10, 30, 45]);
    expect(before.map((e) => e.crid)).toEqual([
      "crid://radio.example/s0/202611230500/30m",
      "crid://radio.example/s0/202611230500/45m",
    ]);
    expect(after.slice(1)).toEqual(before);
  });

  it("refuses two events of a programme that start in the same minute, at the later one", () => {
    const service = uniqueService(
      "s0",
      0,
      { timeZone: "Europe/Zurich", starts: ["06:00"], special: null, events: [] },
      "2026-11-23",
    );
    const events: ProgrammeEvent[] = [0, 1].map((i) => ({
      name: { short: "E", long: "E" },
      offset: 30,
      duration: 5,
      every: undefined,
      origin: origin(`events[${i}]`),
    }));
    const shows = { show0: { ...service.schedule.shows.show0, events } as Show };
    const { problems } = expandSchedule(
      { ...service, schedule: { ...service.schedule, shows } },
      "radio.example",
      "2026-11-23",
      "2026-11-23",
      episodesOf(service),
    );
    expect(problems.map((p) => [p.field, p.message])).toEqual([
      [
        "events[1]",
        expect.stringMatching(
          /^starts in the same minute as schedules\/x\.yaml:2:3 .*so the two would share shortId \d+ \(shortIds: unique\)$/,
        ),
      ],
    ]);
  });

  it("writes 0 by default, as the seed's API does, for programmes, groups and events", () => {
    const service = makeService({ daily: ["06:00 a", "10:00 b"] });
    const { programmes } = expandSchedule(
      service,
      "radio.example",
      "2026-11-15",
      "2026-12-01",
      episodesOf(service),
    );
    const ids = programmes.flatMap((p) => [p.shortId, p.groupShortId]);
    expect(new Set(ids)).toEqual(new Set([0]));
  });
});
