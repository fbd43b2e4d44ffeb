import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { validate } from "../../../src/cli/validateCommand.js";

const MINIMAL = "test/fixtures/minimal";
const NOW = Date.parse("2026-11-23T08:00:00Z");
const root = await mkdtemp(join(tmpdir(), "spi-static-bearers-"));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The minimal data with a second service, both given `bearers` (YAML flow text). */
async function twoServices(name: string, oneBearers: string, twoBearers: string) {
  const data = join(root, name, "data");
  await cp(MINIMAL, data, { recursive: true });
  const one = await readFile(join(data, "services/one.yaml"), "utf8");
  await writeFile(join(data, "services/one.yaml"), `${one}bearers: ${oneBearers}\n`);
  const two = one.replace("id: one", "id: two").replace("Radio One", "Radio Two");
  await writeFile(join(data, "services/two.yaml"), `${two}bearers: ${twoBearers}\n`);
  await cp(join(data, "schedules/one.yaml"), join(data, "schedules/two.yaml"));
  const { lines, exitCode } = await validate({ data, now: NOW });
  const shown = `${relative(process.cwd(), join(root, name))}${sep}`;
  return { lines: lines.map((line) => line.replaceAll(shown, "")), exitCode };
}

describe("a DAB or FM bearer claimed by two services", () => {
  it("is an error at the second claim, naming the first with its file:line:col", async () => {
    const { lines, exitCode } = await twoServices(
      "dab",
      "{ dab: [{ id: dab:4e1.4fe1.4e01.0, mimeValue: audio/aacp }] }",
      "{ dab: [{ id: dab:4e1.4fe2.4e02.0, mimeValue: audio/aacp }, { id: dab:4e1.4fe1.4e01.0, mimeValue: audio/aacp }] }",
    );
    expect(lines.slice(0, -1)).toEqual([
      "data/services/two.yaml:11:76 bearers.dab[1].id: dab:4e1.4fe1.4e01.0 is also claimed at data/services/one.yaml:11:24 bearers.dab[0].id",
    ]);
    expect(exitCode).toBe(1);
  });

  it("is an error for FM too, while the same PI code on another frequency is not", async () => {
    const { lines, exitCode } = await twoServices(
      "fm",
      "{ fm: [{ id: fm:4e1.4e02.10170 }, { id: fm:4e1.4e02.09580 }] }",
      "{ fm: [{ id: fm:4e1.4e02.10170 }] }",
    );
    expect(lines.slice(0, -1)).toEqual([
      "data/services/two.yaml:11:23 bearers.fm[0].id: fm:4e1.4e02.10170 is also claimed at data/services/one.yaml:11:23 bearers.fm[0].id",
    ]);
    expect(exitCode).toBe(1);
  });

  it("is no error when each service has bearers of its own", async () => {
    const { lines, exitCode } = await twoServices(
      "distinct",
      "{ dab: [{ id: dab:4e1.4fe1.4e01.0, mimeValue: audio/aacp }], fm: [{ id: fm:4e1.4e01.09580 }] }",
      "{ dab: [{ id: dab:4e1.4fe1.4e02.0, mimeValue: audio/aacp }], fm: [{ id: fm:4e1.4e02.09580 }] }",
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ is valid, 0 warnings, 2 services ready to build$/);
    expect(exitCode).toBe(0);
  });
});

describe("a stream without a bitrate", () => {
  it("is valid (HLS, DASH, VBR leave it out) and a warning only where the stream is constant-bitrate", async () => {
    const data = join(root, "streams", "data");
    await cp(MINIMAL, data, { recursive: true });
    const one = await readFile(join(data, "services/one.yaml"), "utf8");
    await writeFile(
      join(data, "services/one.yaml"),
      `${one}streams:\n  - { url: "https://s.example/one.m3u8", mimeValue: application/vnd.apple.mpegurl }\n  - { url: "https://s.example/one.mp3", mimeValue: audio/mpeg }\n  - { url: "https://s.example/one.aac", mimeValue: audio/aacp, bitrate: 48 }\n`,
    );
    const { lines, exitCode } = await validate({ data, now: NOW });
    expect(lines.filter((line) => /bitrate/.test(line))).toEqual([
      expect.stringMatching(
        /services\/one\.yaml:\d+:\d+ streams\[1\]: warning: an audio\/mpeg stream without bitrate: TS 102 818 V3\.5\.1 §5\.11\.4 recommends it for a constant-bitrate stream/,
      ),
    ]);
    expect(exitCode).toBe(0);
  });
});
