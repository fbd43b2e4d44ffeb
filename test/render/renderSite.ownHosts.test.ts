import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/build/buildSite.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { readTree } from "../outputFolder.js";

/**
 * test/fixtures/own-hosts: one under the provider's radiodnsHost (rdns.test.example), two under
 * its own FQDN, three under that FQDN too with the serviceIdentifier "one" (issue 25).
 */
const DATA_DIR = "test/fixtures/own-hosts";
const NOW = Date.parse("2026-11-23T08:00:00Z");
const OPEN_SI = "radiodns/spi/3.1/SI.xml";
const KEYED_SI = "_keyed/radiodns/spi/3.1/SI.xml";

let tree: Map<string, string>;
beforeAll(async () => {
  const outDir = await mkdtemp(join(tmpdir(), "spi-own-hosts-"));
  await buildSite({
    dataDir: DATA_DIR,
    outDir,
    now: NOW,
    keys: { keysList: "own-hosts-key-0001" },
  });
  tree = await readTree(outDir);
});

describe("a build whose services have their own RadioDNS FQDNs", () => {
  it("writes each service's PI under its own FQDN and serviceIdentifier, and nowhere else", () => {
    const folders = new Map<string, number>();
    for (const path of tree.keys()) {
      const folder = /^radiodns\/spi\/3\.1\/id\/([^/]+\/[^/]+)\/\d{8}_PI\.xml$/.exec(path)?.[1];
      if (folder) folders.set(folder, (folders.get(folder) ?? 0) + 1);
    }
    expect(Object.fromEntries(folders)).toEqual({
      "rdns.test.example/one": 17,
      "two.test.example/two": 17,
      "two.test.example/one": 17,
    });
    // The same serviceIdentifier under two FQDNs: two services, two different documents.
    const day = "20261123_PI.xml";
    const one = tree.get(`radiodns/spi/3.1/id/rdns.test.example/one/${day}`);
    const three = tree.get(`radiodns/spi/3.1/id/two.test.example/one/${day}`);
    expect(one).toContain('<scope startTime="');
    expect(three).not.toBe(one);
  });

  it("names each service's FQDN and serviceIdentifier in both SI documents", () => {
    for (const si of [OPEN_SI, KEYED_SI]) {
      const identities = [...(tree.get(si) ?? "").matchAll(/<radiodns [^>]*\/>/g)].map((m) => m[0]);
      expect(identities, si).toEqual([
        '<radiodns fqdn="rdns.test.example" serviceIdentifier="one"/>',
        '<radiodns fqdn="two.test.example" serviceIdentifier="one"/>',
        '<radiodns fqdn="two.test.example" serviceIdentifier="two"/>',
      ]);
    }
  });

  it("writes only documents that validate against spi_31.xsd", async () => {
    const documents = [...tree]
      .filter(([path]) => path.endsWith(".xml"))
      .map(([name, xml]) => ({ name, xml }));
    expect(documents.length).toBe(2 + 3 * 17);
    expect(await validateSpiDocuments(documents)).toEqual([]);
  });
});
