import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildSite } from "../../src/build/buildSite.js";
import { type ImportResult, importToDataFolder } from "../../src/import/importToDataFolder.js";
import { programmeFactsOf, siteProgrammes } from "./programmeFacts.js";

const FIXTURES = new URL("../fixtures/import/", import.meta.url).pathname;
const SI = join(FIXTURES, "SI.xml");
const PI = join(FIXTURES, "PI_real.xml");
const NOW = Date.parse("2016-09-29T12:00:00Z");

/** The links the build writes of its own for a service with a DAB bearer: not the feed's. */
const BUILD_OWN_LINK = /^(dab|fm):|^crid:/;

describe("importing a real broadcaster's PI document (Heart, 2016) with an SI document", () => {
  let work: string;
  let result: ImportResult;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "spi-import-real-"));
    result = await importToDataFolder({
      from: { files: [SI, PI] },
      dataDir: join(work, "data"),
      timeZone: "Europe/London",
      now: NOW,
      force: false,
    });
  });

  it("writes a data folder that validates", () => {
    expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(result).toMatchObject({ services: 1, programmes: 9 });
  });

  it("builds into the feed's programmes: times, names, descriptions, images and links", async () => {
    const out = join(work, "out");
    await buildSite({
      dataDir: join(work, "data"),
      outDir: out,
      now: NOW,
      keys: { keysList: "import-test-key-0000000001" },
    });
    const feed = programmeFactsOf(await readFile(PI, "utf8"));
    const built = (await siteProgrammes(out)).get("london") ?? [];
    const withoutBuildLinks = built.map((p) => ({
      ...p,
      links: p.links.filter((uri) => !BUILD_OWN_LINK.test(uri)),
    }));
    expect(feed).toHaveLength(9);
    expect(withoutBuildLinks).toEqual(feed);
  });

  it("lists what the data cannot say, with where it came from", () => {
    const notes = result.notes.map(
      (n) => `${n.origin.replace(FIXTURES, "")}: ${n.message} ×${n.count}`,
    );
    expect(notes).toEqual(
      expect.arrayContaining([
        'SI.xml:19:3: genre urn:tva:metadata:cs:ContentCS:2004:3.6.10 has no label: published with its scheme\'s, "Hit-Chart/Song Requests" ×1',
        "PI_real.xml:5:3: the feed's programme shortIds are not kept (9 differ): with shortIds: unique the build gives each programme one from its start ×1",
      ]),
    );
  });

  it("imports the SI's service: names, bearers with their costs and offsets, streams, geolocation", async () => {
    const london = parse(await readFile(join(work, "data/services/london.yaml"), "utf8"));
    expect(london.name).toEqual({
      short: "Capital",
      medium: "Capitali FM",
      long: "Capital London",
    });
    expect(london.bearers).toEqual({
      dab: [{ id: "dab:ce1.c185.c479.0", mimeValue: "audio/mpeg", offset: 2000 }],
      fm: [{ id: "fm:ce1.c479.09580", cost: 30 }],
    });
    expect(london.streams).toHaveLength(2);
    // The feed numbers its programmes: the build numbers them too.
    expect(london.shortIds).toBe("unique");
    expect(london.geolocation.country).toBe("GB");
    expect(london.geolocation.polygon).toHaveLength(15);
    expect(london.geolocation.polygon[0]).toEqual([51.524124, -2.709503]);
  });

  it("keeps each airing's CRID, and what one airing publishes unlike its show, as episodes", async () => {
    const week = parse(await readFile(join(work, "data/episodes/london/2016-W39.yaml"), "utf8"));
    expect(week.episodes).toHaveLength(9);
    expect(week.episodes[0]).toEqual({
      date: "2016-09-28",
      start: "22:00",
      show: "lucy-ellis",
      crid: "crid://epg.musicradio.com/programmes/650/3385690",
    });
    // Lucy Ellis on the 29th shows other images than on the 28th: the same show, its own images.
    expect(week.episodes[8]).toMatchObject({
      date: "2016-09-29",
      start: "22:00",
      show: "lucy-ellis",
      crid: "crid://epg.musicradio.com/programmes/650/3385691",
      images: [
        {
          url: "http://mediaweb.musicradio.com/ArtWork/SES/c2953ee1-2a09-4e20-975f-383f95067c6a.png",
          size: "600x320",
        },
        {
          url: "http://mediaweb.musicradio.com/ArtWork/SES/8a2fe380-0c37-41a2-8f33-48243ec65968.png",
          size: "2048x2048",
        },
      ],
    });
    const schedule = await readFile(join(work, "data/schedules/london.yaml"), "utf8");
    expect(schedule).toMatch(
      /lucy-ellis:\n(.*\n)*? {4}group: crid:\/\/epg\.musicradio\.com\/programmes\/650\n/,
    );
    expect(schedule).not.toContain("lucy-ellis-2");
  });
});
