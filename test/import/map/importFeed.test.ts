import { describe, expect, it } from "vitest";
import type { ImportNote } from "../../../src/import/importNote.js";
import { importFeed } from "../../../src/import/map/importFeed.js";
import { parseFeedDocuments } from "../../../src/import/read/parseFeedDocuments.js";
import { defaultShortIdSlot } from "../../../src/load/model/shortIdSlot.js";
import { programmeShortId } from "../../../src/schedule/programmeShortId.js";

const NS = 'xmlns="http://www.worlddab.org/schemas/spi/31"';
const SI = `<serviceInformation ${NS} xml:lang="en" originator="Test Radio"><services>
  <serviceProvider><shortName>Test</shortName><mediumName>Test Radio</mediumName></serviceProvider>
  <service><shortName>One</shortName><mediumName>Radio One</mediumName>
    <genre href="urn:tva:metadata:cs:ContentCS:2011:3.6.1">Pop</genre>
    <bearer id="dab:4e1.4fe1.4e01.0" cost="20" mimeValue="audio/aacp"/>
    <radiodns fqdn="rdns.test.example" serviceIdentifier="one"/></service>
</services></serviceInformation>`;

interface Airing {
  start: string;
  minutes: number;
  name: string;
  description?: string;
  website?: string;
  events?: string;
}

/** A PI document of a day's airings, without memberOf (grouped by name) and CRIDs of its own. */
function pi(day: string, airings: Airing[]): string {
  const programmes = airings.map(
    (a, i) => `<programme id="crid://test.example/p/${day}${i}" shortId="0">
      <mediumName>${a.name}</mediumName><longName>${a.name} Show</longName>
      <location><time time="${day}T${a.start}:00Z" duration="PT${a.minutes}M"/></location>
      ${a.description ? `<mediaDescription><shortDescription>${a.description}</shortDescription></mediaDescription>` : ""}
      ${a.website ? `<link uri="${a.website}" mimeValue="text/html" description="Website"/>` : ""}
      ${a.events ?? ""}</programme>`,
  );
  return `<epg ${NS} xml:lang="en"><schedule originator="Test Radio">${programmes.join("")}</schedule></epg>`;
}

const bulletin = (offsets: number[]) =>
  offsets
    .map(
      (minutes, i) =>
        `<programmeEvent id="x/${i}" shortId="0"><mediumName>News</mediumName><longName>News on the Hour</longName><location><relativeTime time="PT${minutes}M" duration="PT5M"/></location></programmeEvent>`,
    )
    .join("");

function importDays(days: Record<string, Airing[]>) {
  const notes: ImportNote[] = [];
  const documents = [
    { source: "SI.xml", path: "SI.xml", text: SI },
    ...Object.entries(days).map(([day, airings]) => ({
      source: `${day}.xml`,
      path: `id/rdns.test.example/one/${day.replaceAll("-", "")}_PI.xml`,
      text: pi(day, airings),
    })),
  ];
  const feed = parseFeedDocuments(documents, "UTC", notes);
  const data = importFeed(feed, { timeZone: "UTC", serviceTimeZones: {}, source: "test" }, notes);
  const [service] = data.services;
  if (!service) throw new Error("no service imported");
  return { ...service, notes };
}

describe("importFeed", () => {
  it("groups programmes without memberOf by name, gives the others' texts to episodes, and keeps every CRID", () => {
    const day = (description: string): Airing[] => [
      { start: "00:00", minutes: 360, name: "Night" },
      { start: "06:00", minutes: 1080, name: "Day", description },
    ];
    const { schedule, episodes, notes } = importDays({
      "2026-11-02": day("Monday's guest"),
      "2026-11-09": day("Usual day"),
      "2026-11-16": day("Usual day"),
    });
    expect(Object.keys(schedule.shows)).toEqual(["day-show", "night-show"]);
    expect(schedule.shows["day-show"]?.description).toEqual({ short: "Usual day" });
    expect(schedule.grid).toEqual([
      {
        days: "mon",
        slots: [
          { start: "00:00", show: "night-show" },
          // Nothing follows on Tuesday: dead air until the next Monday.
          { start: "06:00", end: "00:00", show: "day-show" },
        ],
      },
    ]);
    expect(episodes).toHaveLength(6);
    expect(episodes[1]).toEqual({
      date: "2026-11-02",
      start: "06:00",
      show: "day-show",
      description: { short: "Monday's guest" },
      crid: "crid://test.example/p/2026-11-021",
    });
    expect(notes.map((n) => n.message)).toContain(
      "programmes without memberOf are grouped by name, and the build gives them their show's group CRID",
    );
  });

  it("makes an airing without its show's website a show of its own: an episode cannot take a field away", () => {
    const day = (website?: string): Airing[] => [
      { start: "00:00", minutes: 1440, name: "All Day", ...(website ? { website } : {}) },
    ];
    const { schedule } = importDays({
      "2026-11-02": day("https://test.example/allday"),
      "2026-11-03": day("https://test.example/allday"),
      "2026-11-04": day(),
    });
    expect(schedule.shows["all-day-show"]?.website).toBe("https://test.example/allday");
    expect(schedule.shows["all-day-show-2"]).toEqual({
      name: { medium: "All Day", long: "All Day Show" },
      group: "crid://test.example/one/all-day-show",
    });
  });

  it("sets shortIds: unique where the feed's shortIds are the build's own, without a note", () => {
    const start = Date.parse("2026-11-02T00:00:00Z");
    const shortId = programmeShortId(defaultShortIdSlot("one"), start);
    const xml = pi("2026-11-02", [{ start: "00:00", minutes: 1440, name: "All Day" }]).replace(
      'shortId="0"',
      `shortId="${shortId}"`,
    );
    const notes: ImportNote[] = [];
    const feed = parseFeedDocuments(
      [
        { source: "SI.xml", path: "SI.xml", text: SI },
        { source: "PI.xml", path: "id/rdns.test.example/one/20261102_PI.xml", text: xml },
      ],
      "UTC",
      notes,
    );
    const data = importFeed(feed, { timeZone: "UTC", serviceTimeZones: {}, source: "t" }, notes);
    expect(data.services[0]?.service.shortIds).toBe("unique");
    expect(notes.filter((n) => n.message.includes("shortId"))).toEqual([]);
  });

  it("writes news on the hour as one event with every, whatever the airing's length", () => {
    const { schedule, episodes } = importDays({
      "2026-11-02": [
        { start: "00:00", minutes: 180, name: "Early", events: bulletin([0, 60, 120]) },
        { start: "03:00", minutes: 60, name: "Early", events: bulletin([0]) },
        { start: "04:00", minutes: 1200, name: "Rest" },
      ],
    });
    expect(schedule.shows["early-show"]?.events).toEqual([
      {
        name: { medium: "News", long: "News on the Hour" },
        offset: "00:00",
        duration: "00:05",
        every: "01:00",
      },
    ]);
    // The one-hour airing holds one bulletin, as `every` places it: it needs no episode of its own.
    expect(episodes.filter((e) => e.events !== undefined)).toEqual([]);
  });
});
