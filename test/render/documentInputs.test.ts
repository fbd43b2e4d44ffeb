import { appendFile, cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";
import type { Broadcaster, Service } from "../../src/load/model/broadcaster.js";
import { siteInputs } from "../../src/render/documentInputs.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-inputs-"));
afterAll(() => rm(root, { recursive: true, force: true }));
const DAY = "2026-11-23";

async function load(dir: string): Promise<Broadcaster> {
  const { broadcaster } = await loadBroadcaster(dir);
  if (!broadcaster) throw new Error(`${dir} does not load`);
  return broadcaster;
}

/** Each service's PI inputs for DAY, and the SI inputs, of a data folder as it is now. */
async function inputsOf(dir: string, version = "v1") {
  const { provider, services } = await load(dir);
  const inputs = siteInputs(version, provider, services);
  const pi = (service: Service) => inputs.programmeInformation(service, DAY);
  return {
    byService: Object.fromEntries(services.map((service) => [service.id, pi(service)])),
    serviceInformation: inputs.serviceInformation,
    inputs,
    services,
  };
}

/** The example data with one file edited (a comment appended: any byte counts). */
async function editedCopy(name: string, file?: string): Promise<string> {
  const dir = join(root, name);
  await cp("data", dir, { recursive: true });
  if (file) await appendFile(join(dir, file), "\n# edited\n");
  return dir;
}

describe("siteInputs", () => {
  it("gives a service's PI documents new inputs when one of its files changes, and keeps the others'", async () => {
    const before = await inputsOf(await editedCopy("unedited"));
    const [episodes = ""] = await readdir("data/episodes/news");
    for (const [name, file, service] of [
      ["service", "services/lounge.yaml", "lounge"],
      ["schedule", "schedules/klassik.yaml", "klassik"],
      ["episodes", `episodes/news/${episodes}`, "news"],
    ] as const) {
      const after = await inputsOf(await editedCopy(name, file));
      for (const [id, inputs] of Object.entries(before.byService)) {
        if (id === service) expect(after.byService[id], file).not.toBe(inputs);
        else expect(after.byService[id], `${id} after ${file}`).toBe(inputs);
      }
      expect(after.serviceInformation).not.toBe(before.serviceInformation);
    }
  });

  it("differs by day, by program version and by provider.yaml, and not from one load to the next", async () => {
    const dir = await editedCopy("same");
    const { inputs, services, byService } = await inputsOf(dir);
    const [first] = services as [Service];
    expect(inputs.programmeInformation(first, "2026-11-24")).not.toBe(byService[first.id]);
    expect((await inputsOf(dir, "v2")).byService[first.id]).not.toBe(byService[first.id]);
    expect((await inputsOf(dir)).byService).toEqual(byService);
    const provider = await inputsOf(await editedCopy("provider", "provider.yaml"));
    for (const [id, pi] of Object.entries(byService)) expect(provider.byService[id]).not.toBe(pi);
  });
});
