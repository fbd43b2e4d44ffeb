import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-geolocation-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const minimalService = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");

let folders = 0;
async function load(service: string) {
  const dir = join(root, String(folders++));
  await cp("test/fixtures/minimal", dir, { recursive: true });
  await writeFile(join(dir, "services/one.yaml"), `${minimalService}${service}`);
  const report = await loadBroadcaster(dir);
  return {
    service: report.broadcaster?.services[0],
    problems: report.problems.map((p) => `${p.line}:${p.column} ${p.field}: ${p.message}`),
  };
}

describe("geolocation and DAB bitrate", () => {
  it("loads a country, a point and a closed polygon, the country in upper case", async () => {
    const { service, problems } = await load(
      "geolocation:\n  country: [ch, LI]\n  point: [46.948, 7.4474]\n  polygon: [[47, 7], [47, 8], [46.5, 8], [47, 7]]\nbearers:\n  dab: [{ id: dab:4e1.4fe1.4e01.0, mimeValue: audio/aacp, bitrate: 96 }]\n",
    );
    expect(problems).toEqual([]);
    expect(service?.geolocation).toEqual({
      countries: ["CH", "LI"],
      point: [46.948, 7.4474],
      polygon: [
        [47, 7],
        [47, 8],
        [46.5, 8],
        [47, 7],
      ],
    });
    expect(service?.bearers[0]).toMatchObject({ id: "dab:4e1.4fe1.4e01.0", bitrate: 96 });
  });

  it("refuses what no receiver could place, each at its spot", async () => {
    const { problems } = await load(
      [
        "geolocation:",
        "  country: UK",
        "  point: [46.948, 187.4474]",
        "  polygon: [[47, 7], [47, 8], [46.5, 8], [46.5, 7]]",
        "",
      ].join("\n"),
    );
    expect(problems).toEqual([
      '12:12 geolocation.country: "UK" is not an ISO 3166-1 code; the United Kingdom is GB',
      "13:19 geolocation.point[1]: is not a longitude (-180 to 180)",
      "14:12 geolocation.polygon: is not closed: its last point must repeat the first (TS 102 818 §5.12)",
    ]);
    expect((await load("geolocation:\n  point: [97, 7]\n")).problems).toEqual([
      "12:11 geolocation.point[0]: is not a latitude (-90 to 90; latitude comes first)",
    ]);
    expect((await load("geolocation:\n  polygon: [[47, 7], [47, 8], [47, 7]]\n")).problems).toEqual(
      [
        "12:12 geolocation.polygon: has too few points: a polygon has 4 to 100 (the last repeats the first)",
      ],
    );
    expect((await load("geolocation: {}\n")).problems).toEqual([
      "11:14 geolocation: is empty: give a country, a point or a polygon",
    ]);
  });

  it("refuses a DAB bitrate that no sub-channel has", async () => {
    const { problems } = await load(
      "bearers:\n  dab: [{ id: dab:4e1.4fe1.4e01.0, mimeValue: audio/aacp, bitrate: 100 }]\n",
    );
    expect(problems).toEqual([
      "12:68 bearers.dab[0].bitrate: is not a DAB bitrate (8 to 384 kbit/s, a multiple of 8)",
    ]);
  });
});
