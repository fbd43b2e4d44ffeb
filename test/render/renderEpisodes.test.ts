import { describe, expect, it } from "vitest";
import {
  ProgrammeFragments,
  renderProgrammeInformation,
} from "../../src/render/renderProgrammeInformation.js";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import { selectProgrammeDay } from "../../src/schedule/selectProgrammeDay.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { loadedService } from "../fixtures/loadedService.js";
import { makeProvider } from "../fixtures/makeProvider.js";
import { episodesOf } from "../fixtures/makeService.js";

const provider = makeProvider();

const SCHEDULE = `shows:
  morning:
    name: { long: The Morning }
    description: { short: News and music. }
    events:
      - { name: { long: News on the hour, medium: News }, offset: "00:00", duration: "00:05", every: "01:00" }
      - name: { long: The Big Interview, medium: Interview }
        offset: "01:30"
        duration: "00:20"
        description: { short: "One guest, twenty minutes." }
        links: [{ uri: "mailto:interview@radio.example", description: Ask a question }]
    onDemand:
      files:
        - { url: "https://podcast.radio.example/morning.mp3", mimeValue: audio/mpeg, bitrate: 128 }
        - { url: "https://podcast.radio.example/morning.aac", mimeValue: audio/aacp }
      availableDays: 7
    links: [{ uri: "tel:+41310000000", description: Call the studio }]
    keywords: [news, Bern]
  music:
    name: { long: Music All Day }
grid:
  - days: daily
    slots:
      - { start: "06:00", show: morning }
      - { start: "09:00", show: music }
      - { start: "22:00", show: morning }
episodes:
  - date: 2026-11-24
    start: "06:00"
    name: { long: Election Morning, medium: Election }
    description: { long: The results as they come in. }
    events: []
    onDemand:
      files: [{ url: "https://podcast.radio.example/morning-20261124.mp3", mimeValue: audio/mpeg }]
      availableFrom: 2026-11-24T12:00+01:00
      availableUntil: 2027-11-24T12:00+01:00
      duration: "02:50"
`;

function renderDays(dates: string[], fragments = new ProgrammeFragments()) {
  const { service } = loadedService(SCHEDULE);
  const { programmes, problems } = expandSchedule(
    service,
    "radio.example",
    "2026-11-22",
    "2026-11-26",
    episodesOf(service),
  );
  expect(problems).toEqual([]);
  const documents = dates.map((date) =>
    renderProgrammeInformation({
      provider,
      service,
      day: selectProgrammeDay(programmes, service.timeZone, date, 6),
      createdAt: Date.parse("2026-11-23T08:00:00Z"),
      fragments,
    }).toString("utf8"),
  );
  return { documents, fragments };
}

/** The programme element whose CRID ends in `stamp` (yyyyMMddHHmm, UTC). */
function programme(xml: string, stamp: string): string {
  const start = xml.indexOf(`<programme id="crid://radio.example/test/${stamp}"`);
  expect(start, stamp).toBeGreaterThan(-1);
  return xml.slice(start, xml.indexOf("</programme>", start));
}

describe("PI with episodes, programme events and on-demand", () => {
  it("publishes the episode's text on its airing and the show's on the others, all XSD-valid", async () => {
    const { documents } = renderDays(["2026-11-24"]);
    const xml = documents[0] as string;
    const episode = programme(xml, "202611240500");
    expect(episode).toContain("<mediumName>Election</mediumName>");
    expect(episode).toContain("<longDescription>The results as they come in.</longDescription>");
    expect(episode).not.toContain("News and music.");
    // events: [] in the episode: this airing has none; the show's links and keywords stay.
    expect(episode).not.toContain("<programmeEvent");
    expect(episode).toContain('<link uri="tel:+41310000000" description="Call the studio"/>');
    expect(episode).toContain("<keywords>news, Bern</keywords>");
    const late = programme(xml, "202611242100");
    expect(late).toContain("<longName>The Morning</longName>");
    expect(late).toContain("<shortDescription>News and music.</shortDescription>");
    expect(await validateSpiDocuments([{ name: "PI.xml", xml }])).toEqual([]);
  });

  it("places events relative to the airing, repeating ones as often as they fit", () => {
    const { documents } = renderDays(["2026-11-23"]);
    const xml = documents[0] as string;
    // 06:00-09:00: news three times, the interview once; 22:00-06:00: news eight times.
    const morning = programme(xml, "202611230500");
    expect(
      [...morning.matchAll(/<relativeTime time="([^"]+)" duration="([^"]+)"\/>/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
    ).toEqual(["PT0S PT5M", "PT1H PT5M", "PT1H30M PT20M", "PT2H PT5M"]);
    expect(morning).toContain(
      '<programmeEvent id="crid://radio.example/test/202611230500/90m" shortId="0">',
    );
    expect(morning).toMatch(
      /<mediumName>Interview<\/mediumName>\s*<longName>The Big Interview<\/longName>\s*<location>\s*<relativeTime time="PT1H30M" duration="PT20M"\/>\s*<\/location>\s*<mediaDescription>\s*<shortDescription>One guest, twenty minutes.<\/shortDescription>\s*<\/mediaDescription>\s*<link uri="mailto:interview@radio.example" description="Ask a question"\/>/,
    );
    const night = programme(xml, "202611232100");
    expect(night.match(/<mediumName>News<\/mediumName>/g)).toHaveLength(8);
  });

  it("writes catch-up as onDemand: from the airing's end for the days given, or the episode's dates", () => {
    const { documents } = renderDays(["2026-11-24"]);
    const xml = documents[0] as string;
    expect(programme(xml, "202611232100")).toContain(
      '<presentationTime start="2026-11-24T05:00:00Z" end="2026-12-01T05:00:00Z" duration="PT8H"/>',
    );
    const episode = programme(xml, "202611240500");
    expect(episode).toContain(
      '<presentationTime start="2026-11-24T11:00:00Z" end="2027-11-24T11:00:00Z" duration="PT2H50M"/>',
    );
    expect(episode).toContain(
      '<bearer id="https://podcast.radio.example/morning-20261124.mp3" cost="100" mimeValue="audio/mpeg"/>',
    );
    expect(programme(xml, "202611242100")).toContain(
      '<bearer id="https://podcast.radio.example/morning.mp3" cost="100" mimeValue="audio/mpeg" bitrate="128"/>',
    );
  });

  it("renders a show's element once per airing length and an episode's once, reusing both", () => {
    const { fragments, documents } = renderDays(["2026-11-24", "2026-11-25"]);
    // Laid out once, so the episode's content is one object in both documents.
    expect(documents[1]).not.toContain("Election");
    // morning 3 h and 8 h (news fits 3 and 8 times), music, the episode: 4 elements.
    expect(fragments.rendered).toBe(4);
    expect(fragments.renderedEpisodes).toBe(1);
    const airings = documents.reduce((n, xml) => n + (xml.match(/<programme /g)?.length ?? 0), 0);
    expect(fragments.reused).toBe(airings - 4);
  });

  it("renders the same bytes with fragments released and their slabs reused, and refuses released ones", () => {
    const dates = ["2026-11-23", "2026-11-24"];
    const first = renderDays(dates);
    first.fragments.release();
    // The next service's fragments are encoded into the slabs the first gave back.
    const second = renderDays(dates);
    expect(second.documents).toEqual(first.documents);
    expect(() => renderDays(["2026-11-23"], first.fragments)).toThrow(/released/);
  });
});
