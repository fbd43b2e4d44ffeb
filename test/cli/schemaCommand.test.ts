import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputJsonSchemas } from "../../src/load/schema/inputKinds.js";
import { runInProcess } from "./runInProcess.js";

const root = await mkdtemp(join(tmpdir(), "spi-static-schema-"));
afterAll(() => rm(root, { recursive: true, force: true }));

describe("spi-static schema", () => {
  it("has committed schema/*.schema.json equal to ones generated from the zod schemas", async () => {
    for (const { name, text } of inputJsonSchemas()) {
      expect(await readFile(join("schema", name), "utf8"), `run: spi-static schema (${name})`).toBe(
        text,
      );
    }
  });

  it("writes the four schemas into --out", async () => {
    const out = join(root, "written");
    const result = await runInProcess(["schema", "--out", out], root);
    expect(result.exitCode).toBe(0);
    expect((await readdir(out)).sort()).toEqual([
      "episodes.schema.json",
      "provider.schema.json",
      "schedule.schema.json",
      "service.schema.json",
    ]);
    for (const { name, text } of inputJsonSchemas()) {
      expect(await readFile(join(out, name), "utf8")).toBe(text);
    }
  });

  it("gives editors the limits, patterns and closed field lists the loader checks", () => {
    const service = JSON.parse(inputJsonSchemas()[1]?.text ?? "{}");
    expect(service.additionalProperties).toBe(false);
    expect(service.required).toEqual(["id", "name"]);
    expect(service.properties.name.properties.short.maxLength).toBe(8);
    expect(service.properties.id.pattern).toBe("^[a-z0-9]{1,16}$");
    expect(service.properties.genres.minItems).toBeUndefined();
  });

  it("is what every example data file points its editor at", async () => {
    const files = [
      "data/provider.yaml",
      ...(await readdir("data/services")).map((name) => `data/services/${name}`),
      ...(await readdir("data/schedules")).map((name) => `data/schedules/${name}`),
      ...(await readdir("data/episodes", { recursive: true }))
        .filter((name) => name.endsWith(".yaml"))
        .map((name) => `data/episodes/${name}`),
    ];
    for (const file of files) {
      const first = (await readFile(file, "utf8")).split("\n")[0] ?? "";
      const target = /^# yaml-language-server: \$schema=(.+)$/.exec(first)?.[1];
      const folder = file.split("/")[1];
      const kind =
        file === "data/provider.yaml"
          ? "provider"
          : folder === "episodes"
            ? folder
            : folder?.slice(0, -1);
      expect(target && resolve(dirname(file), target), file).toBe(
        resolve(`schema/${kind}.schema.json`),
      );
    }
  });
});
