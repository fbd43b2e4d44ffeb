import { cp, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { readTree } from "../outputFolder.js";
import { runInProcess } from "./runInProcess.js";

/** Two services, `one` fine and `two` with overlapping slots. */
const root = await mkdtemp(join(tmpdir(), "spi-static-keep-going-"));
afterAll(() => rm(root, { recursive: true, force: true }));

beforeAll(async () => {
  await cp("test/fixtures/minimal", join(root, "data"), { recursive: true });
  const one = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");
  await writeFile(join(root, "data/services/two.yaml"), one.replace("id: one", "id: two"));
  await cp(
    "test/fixtures/broken/schedules/overlapping-slots.yaml",
    join(root, "data/schedules/two.yaml"),
  );
});

const NOW = "2026-11-23T08:00:00Z";
const OVERLAP =
  "data/schedules/two.yaml:11:9 grid[0].slots[1]: overlaps data/schedules/two.yaml:10:9 grid[0].slots[0] (on 2026-11-13)";

describe("spi-static build with a broken service", () => {
  it("writes nothing at all without --keep-going", async () => {
    const result = await runInProcess(["build", "--now", NOW, "--out", "refused"], root);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(`${OVERLAP}\nspi-static: 1 error in data; nothing was written\n`);
    await expect(readdir(join(root, "refused"))).rejects.toThrow();
  });

  it("publishes the valid services and lists the broken ones with --keep-going", async () => {
    const result = await runInProcess(
      ["build", "--now", NOW, "--out", "kept", "--keep-going", "--quiet"],
      root,
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `${OVERLAP}\nspi-static: left out 1 service with errors: two; the others were published\n`,
    );
    const services = await readdir(join(root, "kept/radiodns/spi/3.1/id/rdns.test.example"));
    expect(services).toEqual(["one"]);
    const si = await readFile(join(root, "kept/radiodns/spi/3.1/SI.xml"), "utf8");
    expect(si).toContain(`serviceIdentifier="one"`);
    expect(si).not.toContain(`serviceIdentifier="two"`);
  });

  it("says so in the JSON summary", async () => {
    const result = await runInProcess(
      ["build", "--now", NOW, "--out", "json", "--keep-going", "--json"],
      root,
    );
    const summary = JSON.parse(result.stdout);
    expect(summary.ok).toBe(false);
    expect(summary.brokenServices).toEqual(["two"]);
    expect(summary.problems).toHaveLength(1);
  });
});

describe("spi-static build --keep-going when a published service breaks", () => {
  const NEXT_NIGHT = "2026-11-24T08:00:00Z";
  const night = join(root, "nightly");
  const idDir = join(night, "out/radiodns/spi/3.1/id/rdns.test.example");
  const entryOf = (si: string, id: string) =>
    si.match(
      new RegExp(
        `<service>(?:(?!</service>)[\\s\\S])*serviceIdentifier="${id}"[\\s\\S]*?</service>`,
      ),
    )?.[0];

  it("keeps last night's PI files and SI entry of the broken service, and names it", async () => {
    await cp("test/fixtures/minimal", join(night, "data"), { recursive: true });
    const one = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");
    await writeFile(join(night, "data/services/two.yaml"), one.replace("id: one", "id: two"));
    await cp("test/fixtures/minimal/schedules/one.yaml", join(night, "data/schedules/two.yaml"));
    expect((await runInProcess(["build", "--now", NOW, "--quiet"], night)).exitCode).toBe(0);
    const lastNight = {
      pi: await readTree(join(idDir, "two")),
      si: await readFile(join(night, "out/radiodns/spi/3.1/SI.xml"), "utf8"),
      keyed: await readFile(join(night, "out/_keyed/radiodns/spi/3.1/SI.xml"), "utf8"),
    };

    await cp(
      "test/fixtures/broken/schedules/overlapping-slots.yaml",
      join(night, "data/schedules/two.yaml"),
    );
    // And one renamed, so tonight's SI differs from last night's and is written anew.
    const oneFile = join(night, "data/services/one.yaml");
    await writeFile(oneFile, (await readFile(oneFile, "utf8")).replace("Radio One", "Radio Uno"));
    const result = await runInProcess(
      ["build", "--now", NEXT_NIGHT, "--keep-going", "--quiet"],
      night,
    );
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(
      "spi-static: left out 1 service with errors: two (last night's PI files and SI entry kept); the others were published\n",
    );
    expect(await readTree(join(idDir, "two"))).toEqual(lastNight.pi);
    const si = await readFile(join(night, "out/radiodns/spi/3.1/SI.xml"), "utf8");
    const keyed = await readFile(join(night, "out/_keyed/radiodns/spi/3.1/SI.xml"), "utf8");
    expect(entryOf(si, "two")).toBe(entryOf(lastNight.si, "two"));
    expect(entryOf(keyed, "two")).toBe(entryOf(lastNight.keyed, "two"));
    expect(entryOf(si, "one")).toContain("<longName>Radio Uno</longName>");
    const violations = await validateSpiDocuments([
      { name: "SI", xml: si },
      { name: "keyed SI", xml: keyed },
    ]);
    expect(violations).toEqual([]);
    const worker = await readFile(join(night, "out/_worker.js"), "utf8");
    expect(worker).toMatch(
      /"serviceIds": \[\s*"rdns\.test\.example\/one",\s*"rdns\.test\.example\/two"\s*\]/,
    );

    const json = await runInProcess(
      ["build", "--now", NEXT_NIGHT, "--keep-going", "--json"],
      night,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      brokenServices: ["two"],
      keptServices: ["two"],
    });
    // The same night said on stderr too: cron mails it though stdout goes to a log.
    expect(json.stderr).toMatch(/^data\/schedules\/\S+:\d+:\d+ /m);
    expect(json.stderr).toMatch(/^spi-static: left out 1 service with errors: two /m);
  });
});

describe("spi-static build --keep-going when a service on its own RadioDNS FQDN breaks", () => {
  const NEXT_NIGHT = "2026-11-24T08:00:00Z";
  const night = join(root, "own-fqdn");
  const piDir = join(night, "out/radiodns/spi/3.1/id/two.test.example/second");
  const ROUTE = "two.test.example/second";

  it("keeps its PI files, SI entry and edge routes, which its broken data no longer names", async () => {
    await cp("test/fixtures/minimal", join(night, "data"), { recursive: true });
    const one = await readFile("test/fixtures/minimal/services/one.yaml", "utf8");
    const two = one
      .replace("id: one", "id: two")
      .concat(
        "radiodns: { fqdn: two.test.example, serviceIdentifier: second }\n",
        "bearers:\n  dab:\n    - { id: dab:4e1.4fe2.4e04.0, mimeValue: audio/aacp }\n",
      );
    await writeFile(join(night, "data/services/two.yaml"), two);
    await cp("test/fixtures/minimal/schedules/one.yaml", join(night, "data/schedules/two.yaml"));
    expect((await runInProcess(["build", "--now", NOW, "--quiet"], night)).exitCode).toBe(0);
    const lastNight = {
      pi: await readTree(piDir),
      si: await readFile(join(night, "out/radiodns/spi/3.1/SI.xml"), "utf8"),
    };
    expect(lastNight.pi.size).toBeGreaterThan(0);

    // Broken where a file with errors can no longer be trusted to say its FQDN or bearers.
    await writeFile(join(night, "data/services/two.yaml"), `${two}bearers: [\n`);
    const result = await runInProcess(
      ["build", "--now", NEXT_NIGHT, "--keep-going", "--json"],
      night,
    );
    expect(result.exitCode).toBe(1);
    // A file that does not parse names no id: it is named by its path, kept by its file name.
    expect(JSON.parse(result.stdout)).toMatchObject({
      brokenServices: ["data/services/two.yaml"],
      keptServices: ["two"],
    });
    expect(await readTree(piDir)).toEqual(lastNight.pi);
    const si = await readFile(join(night, "out/radiodns/spi/3.1/SI.xml"), "utf8");
    const entry = (text: string) =>
      text.match(
        /<service>(?:(?!<\/service>)[\s\S])*fqdn="two\.test\.example"[\s\S]*?<\/service>/,
      )?.[0];
    expect(entry(si)).toBeDefined();
    expect(entry(si)).toBe(entry(lastNight.si));
    const worker = await readFile(join(night, "out/_worker.js"), "utf8");
    expect(worker).toContain(`"${ROUTE}"`);
    expect(worker).toMatch(/"dab\/4e1\/4fe2\/4e04\/0": "two\.test\.example\/second"/);
  });

  it("keeps them by what they were published as when the broken data names another FQDN", async () => {
    const file = join(night, "data/services/two.yaml");
    const good = (await readFile(file, "utf8")).replace(/bearers: \[\n$/, "");
    await writeFile(file, good);
    const third = "2026-11-25T08:00:00Z";
    expect((await runInProcess(["build", "--now", third, "--quiet"], night)).exitCode).toBe(0);
    const published = await readTree(piDir);
    await writeFile(file, good.replace("fqdn: two.test.example", "fqdn: two..test.example"));
    const result = await runInProcess(
      ["build", "--now", "2026-11-26T08:00:00Z", "--keep-going", "--json"],
      night,
    );
    expect(result.exitCode).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      brokenServices: ["two"],
      keptServices: ["two"],
    });
    expect(await readTree(piDir)).toEqual(published);
    const worker = await readFile(join(night, "out/_worker.js"), "utf8");
    expect(worker).toMatch(/"dab\/4e1\/4fe2\/4e04\/0": "two\.test\.example\/second"/);
  });
});
