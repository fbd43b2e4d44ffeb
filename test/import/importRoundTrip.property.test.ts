import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import sax from "sax";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { buildSite } from "../../src/build/buildSite.js";
import { importToDataFolder } from "../../src/import/importToDataFolder.js";
import { type ProgrammeFacts, siteProgrammes } from "./programmeFacts.js";

/**
 * The importer's promise on spi-static's own output: any data folder spi-static builds, its
 * site imported and built again, gives the same programmes (UTC instants, groups with their
 * shortIds, names, descriptions, links) and the same services (names, genres, bearers and streams, with and without bitrate).
 * Texts are compared with white space runs as one space: XML readers may change them.
 * Each run builds twice (17 days of PI per service): 6 runs (SPI_PROPERTY_RUNS/20 sets more)
 * take 2-5 s on the shared 2-core machine.
 */
const RUNS = Math.max(3, Math.round(Number(process.env.SPI_PROPERTY_RUNS ?? 120) / 20));
const NOW = Date.parse("2026-11-23T08:00:00Z");
const KEY = "import-property-key-000000001";
const MINIMAL = "test/fixtures/minimal";
const root = await mkdtemp(join(tmpdir(), "spi-import-property-"));
afterAll(() => rm(root, { recursive: true, force: true }));

/** Text with what XML and YAML make awkward: markup, runs of white space, accents, emoji. */
const text = (max: number) =>
  fc
    .oneof(
      fc.constantFrom("Morgen & mehr", "Talk <Tea>", 'Say "hi"', "two  spaces", "Café", "🎵 Hits"),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: max }),
    )
    .filter((t) => t.trim() !== "" && Array.from(t).length <= max);

const show = fc.record(
  {
    long: text(40),
    description: fc.option(text(60), { nil: undefined }),
    groupShortId: fc.option(fc.integer({ min: 1, max: 16_777_215 }), { nil: undefined }),
  },
  { requiredKeys: ["long"] },
);

/** A daily grid: 1 to 4 slots at distinct quarter hours, each one of the service's shows. */
const service = fc.record({
  short: text(8),
  long: text(40),
  shows: fc.array(show, { minLength: 1, maxLength: 3 }),
  slots: fc.uniqueArray(fc.integer({ min: 0, max: 95 }), { minLength: 1, maxLength: 4 }),
  showOfSlot: fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
  streams: fc.array(
    fc.record(
      {
        kind: fc.constantFrom("mp3", "aac", "m3u8"),
        bitrate: fc.option(fc.constantFrom(32, 48, 128), { nil: undefined }),
      },
      { requiredKeys: ["kind"] },
    ),
    { maxLength: 2 },
  ),
  fm: fc.boolean(),
  // Its own RadioDNS FQDN and serviceIdentifier, or the provider's host and its id (issue 25).
  fqdn: fc.option(fc.constantFrom("a.test.example", "b.test.example"), { nil: undefined }),
  serviceIdentifier: fc.option(fc.constantFrom("shared", "s0"), { nil: undefined }),
});

/** Where service `index` publishes: two services never share a (fqdn, serviceIdentifier). */
const radiodnsKeyOf = (generated: GeneratedService, index: number) =>
  `${generated.fqdn ?? "rdns.test.example"}/${generated.serviceIdentifier ?? `s${index}`}`;
const distinctRadiodns = (services: GeneratedService[]) =>
  new Set(services.map(radiodnsKeyOf)).size === services.length;

type GeneratedService = typeof service extends fc.Arbitrary<infer T> ? T : never;

async function writeDataFolder(folder: string, services: GeneratedService[]): Promise<void> {
  await mkdir(join(folder, "services"), { recursive: true });
  await mkdir(join(folder, "schedules"), { recursive: true });
  await cp(join(MINIMAL, "provider.yaml"), join(folder, "provider.yaml"));
  const serviceFile = await readFile(join(MINIMAL, "services/one.yaml"), "utf8");
  for (const [index, generated] of services.entries()) {
    const id = `s${index}`;
    const streams = generated.streams.map((stream, n) => ({
      url: `https://stream.test.example/${id}/${n}.${stream.kind}`,
      mimeValue:
        stream.kind === "mp3"
          ? "audio/mpeg"
          : stream.kind === "aac"
            ? "audio/aacp"
            : "application/vnd.apple.mpegurl",
      ...(stream.bitrate !== undefined ? { bitrate: stream.bitrate } : {}),
    }));
    const radiodns = {
      ...(generated.fqdn ? { fqdn: generated.fqdn } : {}),
      ...(generated.serviceIdentifier ? { serviceIdentifier: generated.serviceIdentifier } : {}),
    };
    // Replacer functions: a generated name may hold `$&` or `$\``, which a replacement string
    // would expand.
    const own = serviceFile
      .replace(
        /^id: one$/m,
        () =>
          `id: ${id}${Object.keys(radiodns).length > 0 ? `\nradiodns: ${JSON.stringify(radiodns)}` : ""}`,
      )
      .replace(
        /^name: .*$/m,
        () => `name: ${JSON.stringify({ short: generated.short, long: generated.long })}`,
      );
    const bearers = {
      dab: [{ id: `dab:4e1.4fe1.4e0${index}.0`, mimeValue: "audio/aacp" }],
      ...(generated.fm ? { fm: [{ id: `fm:4e1.4e0${index}.0958${index}` }] } : {}),
    };
    await writeFile(
      join(folder, "services", `${id}.yaml`),
      `${own}${stringify({ bearers, ...(streams.length ? { streams } : {}) })}`,
    );
    const shows = Object.fromEntries(
      generated.shows.map((s, n) => [
        `show${n}`,
        {
          name: { long: s.long },
          ...(s.description !== undefined ? { description: { short: s.description } } : {}),
          ...(s.groupShortId !== undefined ? { groupShortId: s.groupShortId } : {}),
        },
      ]),
    );
    const slots = [...generated.slots]
      .sort((a, b) => a - b)
      .map((quarter, n) => ({
        start: `${String(Math.floor(quarter / 4)).padStart(2, "0")}:${String((quarter % 4) * 15).padStart(2, "0")}`,
        show: `show${(generated.showOfSlot[n] ?? 0) % generated.shows.length}`,
      }));
    await writeFile(
      join(folder, "schedules", `${id}.yaml`),
      stringify({ shows, grid: [{ days: "daily", slots }] }),
    );
  }
}

const spaces = (value: string) => value.replace(/\s+/g, " ");

function normalised(programmes: ProgrammeFacts[] | undefined) {
  return (programmes ?? []).map((p) => ({
    start: p.start,
    durationMinutes: p.durationMinutes,
    memberOf: p.memberOf,
    names: p.names.map(spaces),
    descriptions: p.descriptions.map(spaces),
    links: p.links,
  }));
}

/** Each service of an SI: its names, genres and bearers (attributes), white space normalised. */
function servicesOf(xml: string): string[] {
  const parser = sax.parser(true, {});
  const services: string[] = [];
  let current: string[] | undefined;
  let text = "";
  parser.onopentag = (tag) => {
    if (tag.name === "service") current = [];
    else if (current && /^(bearer|genre|radiodns)$/.test(tag.name))
      current.push(`${tag.name} ${JSON.stringify(tag.attributes)}`);
    text = "";
  };
  parser.ontext = (t) => {
    text += t;
  };
  parser.onclosetag = (name) => {
    if (current && /Name$/.test(name)) current.push(`${name} ${spaces(text.trim())}`);
    if (name === "service" && current) {
      services.push(current.sort().join("\n"));
      current = undefined;
    }
  };
  parser.write(xml).close();
  return services.sort();
}

describe("a site spi-static builds, imported and built again", () => {
  it("has the same programmes and services", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(service, { minLength: 1, maxLength: 3 }).filter(distinctRadiodns),
        async (services) => {
          const work = join(root, String(run++));
          const data = join(work, "data");
          await writeDataFolder(data, services);
          const keys = { keysList: KEY };
          await buildSite({ dataDir: data, outDir: join(work, "out"), now: NOW, keys });
          const result = await importToDataFolder({
            from: { files: [join(work, "out")] },
            dataDir: join(work, "imported"),
            timeZone: "Europe/Zurich",
            now: NOW,
            force: false,
          });
          expect(result.problems.filter((p) => p.severity === "error")).toEqual([]);
          await buildSite({
            dataDir: join(work, "imported"),
            outDir: join(work, "again"),
            now: NOW,
            keys,
          });
          const [before, after] = await Promise.all(
            ["out", "again"].map((out) => siteProgrammes(join(work, out), true)),
          );
          expect([...(after?.keys() ?? [])].sort()).toEqual([...(before?.keys() ?? [])].sort());
          expect(before?.size).toBe(services.length);
          for (const [id, programmes] of before ?? []) {
            expect(programmes.length, id).toBeGreaterThan(16);
            expect(normalised(after?.get(id)), id).toEqual(normalised(programmes));
          }
          for (const path of ["radiodns/spi/3.1/SI.xml", "_keyed/radiodns/spi/3.1/SI.xml"]) {
            const [original, rebuilt] = await Promise.all(
              ["out", "again"].map((out) => readFile(join(work, out, path), "utf8")),
            );
            expect(servicesOf(rebuilt ?? ""), path).toEqual(servicesOf(original ?? ""));
          }
          await rm(work, { recursive: true, force: true });
        },
      ),
      { numRuns: RUNS },
    );
  });
});
