import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_DIR } from "../edge/builtSite.js";
import { runInProcess } from "./runInProcess.js";

async function dataCopy(edit: (file: string, text: string) => string | undefined) {
  const project = await mkdtemp(join(tmpdir(), "spi-dns-"));
  await cp(DATA_DIR, join(project, "data"), { recursive: true });
  for (const file of ["provider.yaml", "services/pop.yaml"]) {
    const path = join(project, "data", file);
    const edited = edit(file, await readFile(path, "utf8"));
    if (edited !== undefined) await writeFile(path, edited);
  }
  return project;
}

describe("spi-static dns", () => {
  it("prints both SRV records and every lookup name of the example in zone-file syntax", async () => {
    const result = await runInProcess(["dns"], await dataCopy(() => undefined));
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines).toContain(
      "_radiospi._tcp.rdns.aareradio.example. 3600 IN SRV 0 100 443 spi.aareradio.example. ; radiospi",
    );
    // The example's PI is keyed: _radioepg is still written, for the clients that look only for it.
    expect(lines).toContain(
      "_radioepg._tcp.rdns.aareradio.example. 3600 IN SRV 0 100 80 spi.aareradio.example. ; radioepg",
    );
    expect(lines).toContain(
      "0.4e01.4fe1.4e1.dab.radiodns.org. 3600 IN CNAME rdns.aareradio.example. ; news dab:4e1.4fe1.4e01.0",
    );
    expect(lines).toContain(
      "10170.4e02.ch.fm.radiodns.org. 3600 IN CNAME rdns.aareradio.example. ; pop fm:4e1.4e02.10170",
    );
  });

  it("--json gives the same records; radioepg: false leaves _radioepg out", async () => {
    const result = await runInProcess(["dns", "--json"], await dataCopy(() => undefined));
    expect(result.exitCode).toBe(0);
    const records = JSON.parse(result.stdout);
    expect(records.srv.map((r: { name: string; port: number }) => [r.name, r.port])).toEqual([
      ["_radiospi._tcp.rdns.aareradio.example", 443],
      ["_radioepg._tcp.rdns.aareradio.example", 80],
    ]);
    const optedOut = await dataCopy((file, text) =>
      file === "provider.yaml"
        ? text.replace(/^discovery:.*\n/m, "$&  radioepg: false\n")
        : undefined,
    );
    const without = JSON.parse((await runInProcess(["dns", "--json"], optedOut)).stdout);
    expect(without.srv.map((r: { name: string }) => r.name)).toEqual([
      "_radiospi._tcp.rdns.aareradio.example",
    ]);
    expect(records.lookupNames).toContainEqual({
      name: "09580.4e01.4e1.fm.radiodns.org",
      target: "rdns.aareradio.example",
      service: "news",
      bearer: "fm:4e1.4e01.09580",
    });
  });

  it("refuses a bearer whose GCC cannot be right and an FQDN that is no DNS name, with file:line:col", async () => {
    const project = await dataCopy((file, text) =>
      file === "provider.yaml"
        ? text.replace(/^radiodnsHost: .*$/m, "radiodnsHost: rdns_aare.example")
        : text.replace("fm:4e1.4e02.10170", "fm:5e1.4e02.10170"),
    );
    const result = await runInProcess(["dns"], project);
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^data\/provider\.yaml:\d+:\d+ radiodnsHost: /m);
    expect(result.stderr).toContain(
      "data/services/pop.yaml:30:13 bearers.fm[0].id: GCC 5e1 must start with the PI code's country id 4 (pi 4e02)",
    );
  });
});
