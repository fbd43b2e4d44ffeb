import { beforeAll, describe, expect, it } from "vitest";
import type { Broadcaster, Service } from "../../src/load/broadcaster.js";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";
import { siteInputs } from "../../src/render/documentInputs.js";

const dataDir = new URL("../../data", import.meta.url).pathname;
let broadcaster: Broadcaster;
beforeAll(async () => {
  const loaded = await loadBroadcaster(dataDir);
  if (!loaded.broadcaster) throw new Error("the example data does not load");
  broadcaster = loaded.broadcaster;
});

function inputsOf(services: readonly Service[], provider = broadcaster.provider, version = "v1") {
  return siteInputs(version, provider, services);
}

describe("siteInputs", () => {
  it("gives a PI document new inputs when its service changes, and keeps the others'", () => {
    const [first, second, ...rest] = broadcaster.services as [Service, Service, ...Service[]];
    const before = inputsOf([first, second, ...rest]);
    const edited: Service = {
      ...first,
      schedule: { ...first.schedule, dates: new Map([...first.schedule.dates].slice(1)) },
    };
    const after = inputsOf([edited, second, ...rest]);
    expect(after.programmeInformation(edited, "2026-11-23")).not.toBe(
      before.programmeInformation(first, "2026-11-23"),
    );
    expect(after.programmeInformation(second, "2026-11-23")).toBe(
      before.programmeInformation(second, "2026-11-23"),
    );
    expect(after.serviceInformation).not.toBe(before.serviceInformation);
  });

  it("differs by day, by program version and by provider", () => {
    const [first] = broadcaster.services as [Service];
    const inputs = inputsOf(broadcaster.services);
    const day = inputs.programmeInformation(first, "2026-11-23");
    expect(inputs.programmeInformation(first, "2026-11-24")).not.toBe(day);
    expect(
      inputsOf(broadcaster.services, undefined, "v2").programmeInformation(first, "2026-11-23"),
    ).not.toBe(day);
    const provider = { ...broadcaster.provider, originator: "Someone else" };
    expect(
      inputsOf(broadcaster.services, provider).programmeInformation(first, "2026-11-23"),
    ).not.toBe(day);
    // The same model loaded again: the same inputs.
    expect(inputsOf(broadcaster.services).programmeInformation(first, "2026-11-23")).toBe(day);
  });

  it("refuses a model holding a function, whose changes it could not see", () => {
    const [first, ...rest] = broadcaster.services as [Service, ...Service[]];
    const lazy = { ...first, later: () => "episodes" } as Service;
    expect(() => inputsOf([lazy, ...rest])).toThrow(/holds a function at "later"/);
  });
});
