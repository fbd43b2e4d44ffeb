import { describe, expect, it } from "vitest";
import { discoveryRecordsOf, zoneFileText } from "../../src/dns/discoveryRecords.js";
import type { Broadcaster, Discovery, Service } from "../../src/load/broadcaster.js";
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
        { id: "bern", bearers: [{ id: "fm:4e1.4e01.09580", cost: 50 }], fmCountry: "ch" },
        { id: "wnyc", bearers: [{ id: "fm:1a0.1234.09390", cost: 50 }], fmCountry: "us" },
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
