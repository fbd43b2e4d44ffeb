import { describe, expect, it } from "vitest";
import { renderProgrammeInformation } from "../../src/render/renderProgrammeInformation.js";
import { expandSchedule } from "../../src/schedule/expandSchedule.js";
import { groupShortId, programmeShortId } from "../../src/schedule/programmeShortId.js";
import { selectProgrammeDay } from "../../src/schedule/selectProgrammeDay.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { makeProvider } from "../fixtures/makeProvider.js";
import { episodesOf, makeService, NO_EPISODES } from "../fixtures/makeService.js";

const provider = makeProvider();

function render(service: ReturnType<typeof makeService>, date: string) {
  const programmes = expandSchedule(
    service,
    provider.cridAuthority,
    "2026-01-01",
    "2026-12-31",
    episodesOf(service),
  ).programmes;
  const day = selectProgrammeDay(programmes, service.timeZone, date, 0);
  return renderProgrammeInformation({
    provider,
    service,
    day,
    createdAt: Date.parse("2026-11-23T08:00:00Z"),
  }).toString("utf8");
}

const times = (xml: string) =>
  [...xml.matchAll(/<time time="([^"]+)" duration="([^"]+)"\/>/g)].map((m) => `${m[1]} ${m[2]}`);

describe("renderProgrammeInformation", () => {
  const night = makeService({ daily: ["01:00-04:00 night", "04:00 early", "12:00 day"] });

  it("writes the spring-forward night's instants and durations in UTC", () => {
    expect(times(render(night, "2026-03-29"))).toEqual([
      "2026-03-28T11:00:00Z PT13H",
      "2026-03-29T00:00:00Z PT2H",
      "2026-03-29T02:00:00Z PT8H",
      "2026-03-29T10:00:00Z PT13H",
    ]);
  });

  it("writes the fall-back night's instants and durations in UTC", () => {
    expect(times(render(night, "2026-10-25"))).toEqual([
      "2026-10-24T10:00:00Z PT13H",
      "2026-10-24T23:00:00Z PT4H",
      "2026-10-25T03:00:00Z PT8H",
      "2026-10-25T11:00:00Z PT13H",
    ]);
  });

  it("carries creationTime, originator, xml:lang and a scope covering the programmes", () => {
    const xml = render(makeService({ daily: ["00:30 night", "23:00 late"] }), "2026-11-23");
    expect(xml).toContain('<epg xmlns="http://www.worlddab.org/schemas/spi/31" xml:lang="en">');
    expect(xml).toContain(
      '<schedule creationTime="2026-11-23T08:00:00Z" originator="Test Radio Group" xml:lang="en">',
    );
    expect(xml).toContain(
      '<scope startTime="2026-11-22T22:00:00Z" stopTime="2026-11-23T23:30:00Z"/>',
    );
    expect(xml).toMatch(/<programme id="crid:\/\/radio\.example\/test\/202611222200" shortId="0">/);
    expect(xml).toContain('<memberOf id="crid://radio.example/test/late" shortId="0"/>');
  });

  it("escapes text and writes images, descriptions and links that validate against the XSD", async () => {
    const base = makeService({ daily: ["00:00 talk"] });
    const talk = {
      name: { long: 'Talk & <Tea> with "Anna" and the Morning Crew' },
      description: { short: "Tea & talk", long: "A long description <b>not bold</b>." },
      images: [
        { url: "https://img.radio.example/talk/320x240.jpg", size: "320x240" },
        { url: "https://img.radio.example/talk/600x600.png", size: "600x600" },
      ],
      website: "https://radio.example/talk?a=1&b=2",
      genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.1.1", name: "News" }],
    };
    const service = {
      ...base,
      bearers: [{ id: "dab:4e1.4fe1.4e01.0", cost: 20, mimeValue: "audio/aacp" }],
      schedule: { ...base.schedule, shows: { talk } },
    };
    const xml = render(service, "2026-11-23");
    expect(xml).toContain(
      '<longName>Talk &amp; &lt;Tea&gt; with "Anna" and the Morning Crew</longName>',
    );
    expect(xml).toContain("<mediumName>Talk &amp; &lt;Tea&gt; wi…</mediumName>");
    expect(xml).toContain(
      '<link uri="https://radio.example/talk?a=1&amp;b=2" mimeValue="text/html" description="Website"/>',
    );
    // A DAB bearer alone says nothing about the broadcast system's identifiers: none are made up.
    expect(xml).not.toContain("terrestrial_");
    expect(xml).toContain(
      '<multimedia url="https://img.radio.example/talk/600x600.png" mimeValue="image/png" width="600" height="600"/>',
    );
    expect(await validateSpiDocuments([{ name: "pi.xml", xml }])).toEqual([]);
  });

  it("writes a show's translations after its own texts and labels its website in the service's language", async () => {
    const base = makeService({ daily: ["00:00 morgen"] });
    const morgen = {
      name: { short: "Morgen", long: "Der Morgen" },
      description: { short: "Wach werden." },
      website: "https://radio.example/morgen",
      keywords: ["Wetter", "Verkehr"],
      links: [{ uri: "mailto:morgen@radio.example", description: "Schreiben Sie uns" }],
      translations: {
        fr: {
          name: { long: "Le Matin" },
          description: { long: "Se réveiller en musique." },
          keywords: ["météo"],
          links: [{ uri: "mailto:matin@radio.example", description: "Écrivez-nous" }],
        },
      },
    };
    const service = {
      ...base,
      language: "de-CH",
      schedule: { ...base.schedule, shows: { morgen } },
    };
    const xml = render(service, "2026-11-23");
    const programme = xml.slice(xml.indexOf("<programme "), xml.indexOf("</programme>"));
    const lines = programme
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /^<((short|medium|long)(Name|Description)|keywords|link)\b/.test(line));
    expect(lines).toEqual([
      "<shortName>Morgen</shortName>",
      "<mediumName>Der Morgen</mediumName>",
      '<mediumName xml:lang="fr">Le Matin</mediumName>',
      "<longName>Der Morgen</longName>",
      '<longName xml:lang="fr">Le Matin</longName>',
      "<shortDescription>Wach werden.</shortDescription>",
      '<longDescription xml:lang="fr">Se réveiller en musique.</longDescription>',
      "<keywords>Wetter, Verkehr</keywords>",
      '<keywords xml:lang="fr">météo</keywords>',
      '<link uri="https://radio.example/morgen" mimeValue="text/html" description="Webseite"/>',
      '<link uri="mailto:morgen@radio.example" description="Schreiben Sie uns"/>',
      '<link uri="mailto:matin@radio.example" xml:lang="fr" description="Écrivez-nous"/>',
    ]);
    expect(await validateSpiDocuments([{ name: "pi.xml", xml }])).toEqual([]);
  });

  it("leaves a website link undescribed in a language it has no label for", () => {
    const base = makeService({ daily: ["00:00 aamu"] });
    const aamu = { name: { long: "Aamu" }, website: "https://radio.example/aamu" };
    const service = { ...base, language: "fi", schedule: { ...base.schedule, shows: { aamu } } };
    expect(render(service, "2026-11-23")).toContain(
      '<link uri="https://radio.example/aamu" mimeValue="text/html"/>',
    );
  });

  it("writes terrestrial links only as the data gives them: the show's CRID on each airing, an episode's locator on its own", async () => {
    const base = makeService({ daily: ["06:00 talk", "09:00 music"] });
    const talk = {
      name: { long: "Talk" },
      terrestrialProgrammeCrid: "crid://dab.radio.example/talk",
    };
    const episode = {
      date: "2026-11-23",
      start: 6 * 60,
      show: "talk",
      crid: undefined,
      content: {
        terrestrialEventLocator: "dvb://233a.1004.1044;1f3",
        terrestrialProgrammeCrid: "crid://dab.radio.example/talk/8812",
      },
      origin: { file: "episodes.yaml", line: 1, column: 1, field: "episodes[0]" },
    };
    const service = {
      ...base,
      bearers: [{ id: "dab:4e1.4fe1.4e01.0", cost: 20, mimeValue: "audio/aacp" }],
      schedule: {
        ...base.schedule,
        shows: { ...base.schedule.shows, talk },
        episodes: { ...NO_EPISODES, load: () => new Map([["2026-11-23", [episode]]]) },
      },
    };
    const links = (xml: string) =>
      [...xml.matchAll(/<programme id="[^"]*\/(\d{12})"[\s\S]*?<\/programme>/g)].map(
        ([element, start]) => [
          start,
          [...element.matchAll(/<link uri="([^"]+)" description="(terrestrial_[a-z_]+)"\/>/g)].map(
            (m) => `${m[2]} ${m[1]}`,
          ),
        ],
      );
    const monday = render(service, "2026-11-23");
    expect(links(monday)).toEqual([
      ["202611220800", []],
      [
        "202611230500",
        [
          "terrestrial_event_locator dvb://233a.1004.1044;1f3",
          "terrestrial_programme_crid crid://dab.radio.example/talk/8812",
        ],
      ],
      ["202611230800", []],
    ]);
    expect(links(render(service, "2026-11-24"))).toContainEqual([
      "202611240500",
      ["terrestrial_programme_crid crid://dab.radio.example/talk"],
    ]);
    expect(await validateSpiDocuments([{ name: "pi.xml", xml: monday }])).toEqual([]);
  });

  it("writes the unique shortIds of programmes and their groups with shortIds: unique", async () => {
    const service = {
      ...makeService({ daily: ["06:00 talk", "09:00 music"] }),
      shortIds: "unique" as const,
      shortIdSlot: 4,
    };
    const xml = render(service, "2026-11-23");
    const programmes = [...xml.matchAll(/<programme id="[^"]*\/(\d{12})" shortId="(\d+)">/g)];
    expect(programmes.map(([, start, id]) => [start, Number(id)])).toEqual(
      ["202611220800", "202611230500", "202611230800"].map((start) => [
        start,
        programmeShortId(
          4,
          Date.parse(
            `${start.slice(0, 4)}-${start.slice(4, 6)}-${start.slice(6, 8)}T${start.slice(8, 10)}:${start.slice(10)}:00Z`,
          ),
        ),
      ]),
    );
    const group = "crid://radio.example/test/talk";
    expect(xml).toContain(`<memberOf id="${group}" shortId="${groupShortId(group)}"/>`);
    expect(await validateSpiDocuments([{ name: "pi.xml", xml }])).toEqual([]);
  });
});
