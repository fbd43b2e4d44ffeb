import { describe, expect, it } from "vitest";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import { loadedService } from "../fixtures/loadedService.js";
import { episodesOf } from "../fixtures/makeService.js";

const GRID = `shows:
  morning:
    name: { long: The Morning }
    description: { short: News and music. }
    genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.1.1", name: News }]
  music:
    name: { long: Music All Day }
grid:
  - days: daily
    slots:
      - { start: "06:00", show: morning }
      - { start: "10:00", show: music }
      - { start: "22:00", show: morning }
`;

function layOut(schedule: string, episodeFiles: Record<string, string> = {}) {
  const { service } = loadedService(schedule, episodeFiles);
  return expandSchedule(service, "radio.example", "2026-11-23", "2026-11-25", episodesOf(service));
}

const at = (programmes: ReturnType<typeof layOut>["programmes"], iso: string) =>
  programmes.find((p) => p.start === Date.parse(iso));

describe("episodes", () => {
  it("give one airing its own text and CRID; the show's other airings and fields stay", () => {
    const { programmes, problems } = layOut(
      `${GRID}episodes:
  - date: 2026-11-24
    start: "22:00"
    show: morning
    name: { long: Late Edition }
    crid: "crid://radio.example/episodes/late-1124"
`,
    );
    expect(problems).toEqual([]);
    const late = at(programmes, "2026-11-24T21:00:00Z");
    expect(late?.content.name).toEqual({ long: "Late Edition" });
    // Not given by the episode: the show's.
    expect(late?.content.description).toEqual({ short: "News and music." });
    expect(late?.content.genres).toEqual(late?.show.genres);
    expect(late?.crid).toBe("crid://radio.example/episodes/late-1124");
    expect(late?.derivedCrid).toBe(false);
    const early = at(programmes, "2026-11-24T05:00:00Z");
    expect(early?.content).toBe(early?.show);
    expect(early?.episode).toBeUndefined();
    expect(early?.crid).toBe("crid://radio.example/test/202611240500");
    expect(at(programmes, "2026-11-23T21:00:00Z")?.content.name).toEqual({ long: "The Morning" });
  });

  it("match by start alone, by show alone where it airs once, from files of their own", () => {
    const { programmes, problems } = layOut(GRID, {
      "week48.yaml": `episodes:
  - { date: 2026-11-23, start: "10:00", name: { long: Monday Music } }
  - { date: 2026-11-25, show: music, description: { short: Wednesday's playlist. } }
`,
      "extra.yaml": `episodes:
  - { date: 2026-11-24, start: "06:00", show: morning, keywords: [election] }
`,
    });
    expect(problems).toEqual([]);
    expect(at(programmes, "2026-11-23T09:00:00Z")?.content.name).toEqual({ long: "Monday Music" });
    expect(at(programmes, "2026-11-25T09:00:00Z")?.content.description).toEqual({
      short: "Wednesday's playlist.",
    });
    expect(at(programmes, "2026-11-24T05:00:00Z")?.content.keywords).toEqual(["election"]);
    expect(programmes.filter((p) => p.episode !== undefined)).toHaveLength(3);
  });

  it("are matched by their local start on the night the clocks go back", () => {
    const { service } = loadedService(`shows:
  night:
    name: { long: Night }
  day:
    name: { long: Day }
grid:
  - days: daily
    slots:
      - { start: "00:00", show: night }
      - { start: "02:30", show: night }
      - { start: "06:00", show: day }
episodes:
  - { date: 2026-10-25, start: "02:30", name: { long: The Long Night } }
`);
    const { programmes, problems } = expandSchedule(
      service,
      "r.example",
      "2026-10-25",
      "2026-10-25",
      episodesOf(service),
    );
    expect(problems).toEqual([]);
    // 02:30 occurs twice that night; the slot is its first occurrence, still summer time.
    expect(at(programmes, "2026-10-25T00:30:00Z")?.content.name).toEqual({
      long: "The Long Night",
    });
  });

  it("dated outside the laid-out days are left for the days they belong to", () => {
    const { programmes, problems } = layOut(
      `${GRID}episodes:
  - { date: 2026-10-01, start: "07:00", name: { long: Long Gone } }
`,
    );
    expect(problems).toEqual([]);
    expect(programmes.every((p) => p.episode === undefined)).toBe(true);
  });
});
