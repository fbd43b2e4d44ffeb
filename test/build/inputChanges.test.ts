import { describe, expect, it } from "vitest";
import type { BuildSources } from "../../src/build/buildFingerprint.js";
import { describeChanges, inputChanges } from "../../src/build/inputChanges.js";

const before: BuildSources = {
  program: { code: "c1", runtime: "node 20.1", "@date-fns/tz": "1.5.0" },
  dataDir: "data",
  data: {
    "provider.yaml": "file p1",
    "services/news.yaml": "file n1",
    "schedules/news.yaml": "file s1",
    "episodes/pop/w48.yaml": "file e1",
    "logos/aare.svg": "file l1",
  },
  keys: "k1",
};

describe("describeChanges", () => {
  it("names the program's parts that changed, a dependency with its versions", () => {
    const now = {
      ...before,
      program: { ...before.program, code: "c2", "@date-fns/tz": "1.6.0", sax: "1.6.1" },
    };
    expect(describeChanges(inputChanges(before, now), "news")).toBe(
      "the program changed: code, @date-fns/tz 1.5.0 → 1.6.0, sax none → 1.6.1",
    );
  });

  it("names the data files a service is made from: its own, the provider's, those of no service", () => {
    const edited = (paths: string[]) => ({
      ...before,
      data: { ...before.data, ...Object.fromEntries(paths.map((path) => [path, "file x"])) },
    });
    const changes = inputChanges(before, edited(["schedules/news.yaml", "episodes/pop/w48.yaml"]));
    expect(describeChanges(changes, "news")).toBe("data file changed: schedules/news.yaml");
    expect(describeChanges(changes, "pop")).toBe("data file changed: episodes/pop/w48.yaml");
    expect(describeChanges(changes)).toBe(
      "data files changed: episodes/pop/w48.yaml, schedules/news.yaml",
    );
    expect(describeChanges(changes, "jazz")).toBeUndefined();
    const shared = inputChanges(before, edited(["provider.yaml", "logos/aare.svg"]));
    expect(describeChanges(shared, "jazz")).toBe(
      "data files changed: logos/aare.svg, provider.yaml",
    );
    const { "services/news.yaml": _removed, ...rest } = before.data;
    expect(describeChanges(inputChanges(before, { ...before, data: rest }), "news")).toBe(
      "data file changed: services/news.yaml",
    );
  });

  it("names the keys and the data folder, and says when nothing was recorded to compare with", () => {
    expect(describeChanges(inputChanges(before, { ...before, keys: "k2" }))).toBe(
      "the keys changed",
    );
    expect(describeChanges(inputChanges(before, { ...before, keys: "k2" }), "news")).toBe(
      undefined,
    );
    expect(describeChanges(inputChanges(before, { ...before, dataDir: "elsewhere" }))).toBe(
      "the data folder is another one",
    );
    expect(describeChanges(inputChanges(undefined, before))).toBe(
      "the last build recorded no sources to compare with",
    );
  });
});
