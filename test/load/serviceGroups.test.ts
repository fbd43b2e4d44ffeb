import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-groups-"));
afterAll(() => rm(root, { recursive: true, force: true }));

const minimalProvider = await readFile("test/fixtures/minimal/provider.yaml", "utf8");
const minimalService = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");

const groups = [
  "serviceGroups:",
  "  music:",
  "    name: { short: Music, long: Aare Music }",
  "    translations: { de: { name: { short: Musik, long: Aare Musik } } }",
  "  regional:",
  "    name: { short: Region, long: Regional radio }",
  "",
].join("\n");

let folders = 0;
async function load(provider: string, service: string) {
  const dir = join(root, String(folders++));
  await cp("test/fixtures/minimal", dir, { recursive: true });
  await writeFile(join(dir, "provider.yaml"), `${minimalProvider}${provider}`);
  await writeFile(join(dir, "services/one.yaml"), `${minimalService}${service}`);
  const report = await loadBroadcaster(dir);
  return {
    report,
    problems: report.problems.map(
      (p) =>
        `${p.file.replace(/^.*spi-static-groups-[^/]+\/\d+\//, "")}:${p.line}:${p.column} ${p.field}: ${p.severity} ${p.message}`,
    ),
  };
}

describe("service groups", () => {
  it("loads the provider's groups and a service's memberships", async () => {
    const { report, problems } = await load(groups, "groups: [music, regional]\n");
    expect(problems).toEqual([]);
    const group = report.broadcaster?.provider.serviceGroups[0];
    expect(group).toMatchObject({ id: "music", name: { short: "Music", long: "Aare Music" } });
    expect(Object.keys(group?.translations ?? {})).toEqual(["de"]);
    expect(report.broadcaster?.services[0]?.groups).toEqual(["music", "regional"]);
  });

  it("refuses a group the provider does not define or one named twice, and warns of a group without members", async () => {
    const { report, problems } = await load(groups, "groups: [musik, music, music]\n");
    expect(problems).toEqual([
      `services/one.yaml:11:10 groups[0]: error "musik" is not one of the provider's serviceGroups; did you mean "music"?`,
      `services/one.yaml:11:24 groups[2]: error "music" is named twice`,
      "provider.yaml:18:3 serviceGroups.regional: warning has no member: no service names it in groups, and receivers do not show an empty group (TS 102 818 §6.9)",
    ]);
    expect(report.brokenServices).toEqual(["one"]);
  });

  it("asks a group for a short name, as SPI's serviceGroup needs one", async () => {
    const { problems } = await load(
      "serviceGroups:\n  music: { name: { long: Aare Music } }\n",
      "groups: [music]\n",
    );
    expect(problems).toEqual([
      "provider.yaml:15:18 serviceGroups.music.name.short: error is required: SPI's serviceGroup needs a shortName (at most 8 characters)",
    ]);
  });
});
