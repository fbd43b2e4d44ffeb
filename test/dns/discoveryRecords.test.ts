import { describe, expect, it } from "vitest";
import { discoveryRecordsOf, zoneFileText } from "../../src/dns/discoveryRecords.js";
import { loadBroadcaster } from "../../src/load/loadBroadcaster.js";
import type { Broadcaster, Discovery, Service } from "../../src/load/model/broadcaster.js";
import { makeProvider } from "../fixtures/makeProvider.js";

const DISCOVERY: Discovery = {
  host: "spi.radio.example",
  httpsPort: 8443,
  httpPort: 8080,
  openPi: false,
  radioepg: true,
  fmCountry: undefined,
};

function broadcaster(discovery: Partial<Discovery>, bearers: string[][]): Broadcaster {
  // As the loader resolves it: the provider's fmCountry for a service that sets none.
  const services = bearers.map(
    (ids, index) =>
      ({
        id: `s${index}`,
        radiodns: { fqdn: "rdns.radio.example", serviceIdentifier: `s${index}` },
        bearers: ids.map((id) => ({ id, cost: 20 })),
        fmCountry: discovery.fmCountry,
      }) as unknown as Service,
  );
  return {
    provider: makeProvider({ discovery: { ...DISCOVERY, ...discovery } }),
    services,
  };
}

describe("the DNS records radios need", () => {
  it("by default _radiospi (HTTPS port) and _radioepg (plain-HTTP port), keyed PI or open", () => {
    for (const openPi of [false, true]) {
      const records = discoveryRecordsOf(broadcaster({ openPi }, []));
      expect(records.srv).toEqual([
        {
          application: "radiospi",
          name: "_radiospi._tcp.rdns.radio.example",
          priority: 0,
          weight: 100,
          port: 8443,
          target: "spi.radio.example",
        },
        {
          application: "radioepg",
          name: "_radioepg._tcp.rdns.radio.example",
          priority: 0,
          weight: 100,
          port: 8080,
          target: "spi.radio.example",
        },
      ]);
    }
  });

  it("radioepg: false leaves _radioepg out", () => {
    const records = discoveryRecordsOf(broadcaster({ radioepg: false }, []));
    expect(records.srv.map((r) => r.application)).toEqual(["radiospi"]);
  });

  it("a lookup name per DAB and FM bearer (and per FM country form), none for streams", () => {
    const records = discoveryRecordsOf(
      broadcaster({ fmCountry: "ch" }, [
        ["dab:4e1.4fe1.4e01.0", "fm:4e1.4e01.09580", "https://stream.radio.example/a.mp3"],
        ["dab:4e1.4fe1.e14e0123.2"],
      ]),
    );
    expect(records.lookupNames).toEqual([
      {
        name: "0.4e01.4fe1.4e1.dab.radiodns.org",
        target: "rdns.radio.example",
        service: "s0",
        bearer: "dab:4e1.4fe1.4e01.0",
      },
      {
        name: "09580.4e01.4e1.fm.radiodns.org",
        target: "rdns.radio.example",
        service: "s0",
        bearer: "fm:4e1.4e01.09580",
      },
      {
        name: "09580.4e01.ch.fm.radiodns.org",
        target: "rdns.radio.example",
        service: "s0",
        bearer: "fm:4e1.4e01.09580",
      },
      {
        name: "2.e14e0123.4fe1.4e1.dab.radiodns.org",
        target: "rdns.radio.example",
        service: "s1",
        bearer: "dab:4e1.4fe1.e14e0123.2",
      },
    ]);
  });

  it("looks an FM service up by its own country, not the provider's", () => {
    const records = discoveryRecordsOf({
      provider: makeProvider({ discovery: { ...DISCOVERY, fmCountry: "ch" } }),
      services: [
        {
          id: "bern",
          radiodns: { fqdn: "rdns.radio.example", serviceIdentifier: "bern" },
          bearers: [{ id: "fm:4e1.4e01.09580", cost: 50 }],
          fmCountry: "ch",
        },
        {
          id: "wnyc",
          radiodns: { fqdn: "rdns.radio.example", serviceIdentifier: "wnyc" },
          bearers: [{ id: "fm:1a0.1234.09390", cost: 50 }],
          fmCountry: "us",
        },
      ] as unknown as Service[],
    });
    expect(records.lookupNames.map((l) => l.name)).toEqual([
      "09580.4e01.4e1.fm.radiodns.org",
      "09580.4e01.ch.fm.radiodns.org",
      "09390.1234.1a0.fm.radiodns.org",
      "09390.1234.us.fm.radiodns.org",
    ]);
  });

  it("writes zone-file lines with absolute names", () => {
    const text = zoneFileText(discoveryRecordsOf(broadcaster({}, [["fm:4e1.4e02.10170"]])));
    const records = text.split("\n").filter((line) => line !== "" && !line.startsWith(";"));
    expect(records).toEqual([
      "_radiospi._tcp.rdns.radio.example. 3600 IN SRV 0 100 8443 spi.radio.example. ; radiospi",
      "_radioepg._tcp.rdns.radio.example. 3600 IN SRV 0 100 8080 spi.radio.example. ; radioepg",
      "10170.4e02.4e1.fm.radiodns.org. 3600 IN CNAME rdns.radio.example. ; s0 fm:4e1.4e02.10170",
    ]);
  });
});

describe("services on their own Authoritative FQDNs (test/fixtures/own-hosts)", async () => {
  const { broadcaster } = await loadBroadcaster("test/fixtures/own-hosts");
  if (!broadcaster) throw new Error("test/fixtures/own-hosts does not load");
  const records = discoveryRecordsOf(broadcaster);

  it("publishes the SRV records at every FQDN, the provider's first", () => {
    expect(records.fqdns).toEqual(["rdns.test.example", "two.test.example"]);
    expect(records.srv.map((r) => `${r.name} ${r.port} ${r.target}`)).toEqual([
      "_radiospi._tcp.rdns.test.example 443 spi.test.example",
      "_radioepg._tcp.rdns.test.example 80 spi.test.example",
      "_radiospi._tcp.two.test.example 443 spi.test.example",
      "_radioepg._tcp.two.test.example 80 spi.test.example",
    ]);
  });

  it("points each bearer's lookup name at its own service's FQDN", () => {
    expect(records.lookupNames.map((l) => `${l.service} ${l.name} → ${l.target}`)).toEqual([
      "one 0.4e01.4fe1.4e1.dab.radiodns.org → rdns.test.example",
      "three 10360.4e03.4e1.fm.radiodns.org → two.test.example",
      "three 10360.4e03.ch.fm.radiodns.org → two.test.example",
      "two 0.4e02.4fe1.4e1.dab.radiodns.org → two.test.example",
      "two 09580.4e02.4e1.fm.radiodns.org → two.test.example",
      "two 09580.4e02.ch.fm.radiodns.org → two.test.example",
    ]);
  });

  it("says in the zone file that each FQDN's zone needs its SRV records", () => {
    const text = zoneFileText(records);
    expect(text).toContain(
      "; 1. Publish in the zone of each of rdns.test.example, two.test.example: where the SPI application is served.",
    );
    expect(text).toContain(
      "; 2. Register with RadioDNS: each lookup name a CNAME to its service's FQDN.",
    );
    expect(text).toContain(
      "0.4e02.4fe1.4e1.dab.radiodns.org. 3600 IN CNAME two.test.example. ; two dab:4e1.4fe1.4e02.0",
    );
  });
});
