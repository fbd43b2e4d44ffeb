import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { planUpload } from "../../src/build/uploadList.js";
import { KEYED_SI_PATH, OPEN_SI_PATH } from "../../src/site/siteContract.js";
import { runInProcess } from "../cli/runInProcess.js";

const SI = [KEYED_SI_PATH, OPEN_SI_PATH];
const PI = (service: string, date: string) =>
  `radiodns/spi/3.1/id/rdns.aareradio.example/${service}/${date}_PI.xml`;

describe("planUpload", () => {
  const night1 = new Map([
    [OPEN_SI_PATH, "v1 a"],
    [KEYED_SI_PATH, "v1 b"],
    [PI("pop", "20261116"), "v1 c"],
    [PI("pop", "20261117"), "v1 d"],
  ]);

  it("puts everything, SI apart, and deletes nothing on a first upload", () => {
    const plan = planUpload(night1, undefined);
    expect(plan.documents).toEqual([PI("pop", "20261116"), PI("pop", "20261117")]);
    expect(plan.serviceInformation).toEqual(SI);
    expect(plan.deletes).toEqual([]);
    expect(plan.record).toBe(night1);
  });

  it("puts what is new or changed, and deletes what the bucket holds and out/ no longer does", () => {
    const night2 = new Map([
      [OPEN_SI_PATH, "v1 a"],
      [KEYED_SI_PATH, "v2 e"],
      [PI("pop", "20261117"), "v1 d"],
      [PI("pop", "20261118"), "v1 f"],
    ]);
    const plan = planUpload(night2, night1);
    expect(plan.documents).toEqual([PI("pop", "20261118")]);
    expect(plan.serviceInformation).toEqual([KEYED_SI_PATH]);
    expect(plan.deletes).toEqual([PI("pop", "20261116")]);
    expect(planUpload(night2, night2)).toMatchObject({
      documents: [],
      serviceInformation: [],
      deletes: [],
    });
  });
});

/** An object store as the recipe drives it: the lists, in their order, from out/'s bytes. */
class Bucket {
  readonly objects = new Map<string, Buffer>();
  record: string | undefined;

  /** Runs a plan folder; `failAfter` puts: the upload breaks off there (a network failure). */
  async apply(outDir: string, planDir: string, failAfter = Number.POSITIVE_INFINITY) {
    const list = async (name: string) =>
      (await readFile(join(planDir, name), "utf8")).split("\n").filter((line) => line !== "");
    let puts = 0;
    for (const path of [...(await list("documents.txt")), ...(await list("si.txt"))]) {
      if (puts++ === failAfter) throw new Error("upload broke off");
      this.objects.set(path, await readFile(join(outDir, path)));
    }
    for (const path of await list("delete.txt")) this.objects.delete(path);
    this.record = await readFile(join(planDir, "uploaded.json"), "utf8");
  }
}

describe("spi-static upload-list on built sites, night after night", () => {
  let work: string;
  let outDir: string;
  const build = (now: string) =>
    runInProcess(["build", "--data", "data", "--out", outDir, "--now", now, "--quiet"]);
  const uploadList = async (plan: string, bucket: Bucket) => {
    const args = ["upload-list", "--out", outDir, "--to", join(work, plan), "--json"];
    if (bucket.record !== undefined) {
      await writeFile(join(work, "bucket-record.json"), bucket.record);
      args.push("--since", join(work, "bucket-record.json"));
    }
    const result = await runInProcess(args);
    expect(result.exitCode, result.stderr).toBe(0);
    return { ...JSON.parse(result.stdout), dir: join(work, plan) };
  };
  /** What the bucket must hold: out/'s documents and logos, byte for byte, and nothing else. */
  const expectMirror = async (bucket: Bucket) => {
    const record = JSON.parse(bucket.record ?? "{}").documents as Record<string, string>;
    expect([...bucket.objects.keys()].sort()).toEqual(Object.keys(record).sort());
    for (const [path, bytes] of bucket.objects) {
      expect(bytes.equals(await readFile(join(outDir, path))), path).toBe(true);
    }
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), "spi-upload-list-"));
    outDir = join(work, "out");
  });

  it("lists a first upload, then only a night's changes; a broken-off upload is planned again and converges", async () => {
    expect((await build("2026-11-23T10:00:00Z")).exitCode).toBe(0);
    const bucket = new Bucket();
    const first = await uploadList("plan1", bucket);
    expect(first).toMatchObject({ ok: true, firstUpload: true, serviceInformation: 2, deletes: 0 });
    const documents = (await readFile(join(first.dir, "documents.txt"), "utf8")).split("\n");
    expect(documents).toContain(PI("pop", "20261115"));
    expect(documents.some((path) => path.startsWith("logos/"))).toBe(true);
    expect(documents.some((path) => path.startsWith("_spi-static") || path === "_worker.js")).toBe(
      false,
    );
    await bucket.apply(outDir, first.dir);
    await expectMirror(bucket);
    expect(bucket.objects.size).toBe(first.served);

    // Nothing built anew: nothing to upload.
    const same = await uploadList("plan-same", bucket);
    expect(same).toMatchObject({ documents: 0, serviceInformation: 0, deletes: 0 });

    // The next night: the window moves by a day.
    expect((await build("2026-11-24T10:00:00Z")).exitCode).toBe(0);
    const second = await uploadList("plan2", bucket);
    const deletes = (await readFile(join(second.dir, "delete.txt"), "utf8")).split("\n");
    expect(deletes).toContain(PI("pop", "20261115"));
    expect(deletes.every((path) => path === "" || path.endsWith("20261115_PI.xml"))).toBe(true);
    const puts = (await readFile(join(second.dir, "documents.txt"), "utf8")).split("\n");
    expect(puts).toContain(PI("pop", "20261202"));
    expect(second.documents).toBeLessThan(first.documents / 2);

    // The upload breaks off after two puts: the bucket keeps its old record.
    const before = bucket.record;
    await expect(bucket.apply(outDir, second.dir, 2)).rejects.toThrow("upload broke off");
    expect(bucket.record).toBe(before);
    // The retry plans every change since the last complete upload again, and converges.
    const retry = await uploadList("plan2-retry", bucket);
    expect(retry).toMatchObject({
      documents: second.documents,
      serviceInformation: second.serviceInformation,
      deletes: second.deletes,
    });
    await bucket.apply(outDir, retry.dir);
    await expectMirror(bucket);
    expect(bucket.objects.has(PI("pop", "20261115"))).toBe(false);
  }, 120_000);

  it("refuses an output folder a build left unfinished, and a damaged record, naming the file", async () => {
    const unfinished = join(work, "unfinished");
    await cp(outDir, unfinished, { recursive: true });
    await writeFile(join(unfinished, "_spi-static/state.journal"), "");
    const refused = await runInProcess([
      "upload-list",
      "--out",
      unfinished,
      "--to",
      join(work, "x"),
    ]);
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain("did not finish: build again, then upload");

    const record = join(work, "damaged.json");
    await writeFile(record, '{"format": 1, "documents": ["a"]}');
    const damaged = await runInProcess([
      "upload-list",
      "--out",
      outDir,
      "--since",
      record,
      "--to",
      join(work, "y"),
    ]);
    expect(damaged.exitCode).toBe(3);
    expect(damaged.stderr).toContain(`${record} is damaged: "documents" is not an object`);
  });
});
