import { describe, expect, it } from "vitest";
import {
  type BroadcastBearer,
  gccProblem,
  lookupNamesOf,
  parseBroadcastBearer,
  serviceIdentifiersOf,
} from "../../../src/load/formats/radiodnsBearer.js";

const bearer = (id: string) => parseBroadcastBearer(id) as BroadcastBearer;

describe("a bearer as RadioDNS sees it (TS 103 270)", () => {
  it("reads DAB and FM bearer ids, and nothing else", () => {
    expect(parseBroadcastBearer("dab:4e1.4fe1.4e01.0")).toEqual({
      system: "dab",
      gcc: "4e1",
      eid: "4fe1",
      sid: "4e01",
      scids: "0",
    });
    expect(parseBroadcastBearer("fm:4e1.4e02.10170")).toEqual({
      system: "fm",
      gcc: "4e1",
      pi: "4e02",
      frequency: "10170",
    });
    for (const other of [
      "https://stream.example/a.mp3",
      "dab:4E1.4fe1.4e01.0",
      "fm:4e1.4e02.9580",
    ]) {
      expect(parseBroadcastBearer(other)).toBeUndefined();
    }
  });

  it("reads HD Radio, DRM and AMSS bearer ids, with their ServiceIdentifiers and lookup names", () => {
    expect(parseBroadcastBearer("hd:292.0ea31")).toEqual({ system: "hd", cc: "292", tx: "0ea31" });
    expect(serviceIdentifiersOf(bearer("hd:292.0ea31"), "us")).toEqual(["hd/292/0ea31"]);
    expect(lookupNamesOf(bearer("hd:292.0ea31"))).toEqual(["0ea31.292.hd.radiodns.org"]);
    expect(serviceIdentifiersOf(bearer("drm:e1c238"))).toEqual(["drm/e1c238"]);
    expect(lookupNamesOf(bearer("drm:e1c238"))).toEqual(["e1c238.drm.radiodns.org"]);
    expect(lookupNamesOf(bearer("amss:e1c238"))).toEqual(["e1c238.amss.radiodns.org"]);
    expect(gccProblem(bearer("drm:e1c238"))).toBeUndefined();
    for (const other of ["hd:292.0ea3", "drm:e1c23", "amss:E1C238", "drm:e1c238.0"]) {
      expect(parseBroadcastBearer(other)).toBeUndefined();
    }
  });

  it("gives the ServiceIdentifier and lookup name receivers build, FM also by country", () => {
    expect(serviceIdentifiersOf(bearer("dab:4e1.4fe1.4e01.0"), "ch")).toEqual([
      "dab/4e1/4fe1/4e01/0",
    ]);
    expect(lookupNamesOf(bearer("dab:4e1.4fe1.4e01.0"))).toEqual([
      "0.4e01.4fe1.4e1.dab.radiodns.org",
    ]);
    expect(serviceIdentifiersOf(bearer("fm:4e1.4e01.09580"), "ch")).toEqual([
      "fm/4e1/4e01/09580",
      "fm/ch/4e01/09580",
    ]);
    expect(lookupNamesOf(bearer("fm:4e1.4e01.09580"), "ch")).toEqual([
      "09580.4e01.4e1.fm.radiodns.org",
      "09580.4e01.ch.fm.radiodns.org",
    ]);
    // The examples of TS 102 818 / RadioDNS's own documentation.
    expect(lookupNamesOf(bearer("fm:ce1.c479.09580"))).toEqual(["09580.c479.ce1.fm.radiodns.org"]);
  });

  it("accepts a GCC made of the SId's or PI code's country id and an allocated ECC", () => {
    for (const id of [
      "dab:4e1.4fe1.4e01.0",
      "dab:ce1.c185.c586.0",
      "dab:4e1.4fe1.e14e0123.2",
      "fm:ce1.c479.09580",
      "fm:1a0.1234.08810",
    ]) {
      expect(gccProblem(bearer(id)), id).toBeUndefined();
    }
  });

  it("refuses a GCC no radio would build from the broadcast", () => {
    expect(gccProblem(bearer("fm:4e1.5e02.10170"))).toBe(
      "GCC 4e1 must start with the PI code's country id 5 (pi 5e02)",
    );
    expect(gccProblem(bearer("dab:4e1.4fe1.c586.0"))).toBe(
      "GCC 4e1 must start with the SId's country id c (sid c586)",
    );
    expect(gccProblem(bearer("dab:4e1.4fe1.e04e0123.0"))).toBe(
      "GCC 4e1 must end with the SId's ECC e0 (sid e04e0123)",
    );
    expect(gccProblem(bearer("dab:4e1.4fe1.e1500123.0"))).toBe(
      "GCC 4e1 must start with the SId's country id 5 (sid e1500123)",
    );
    expect(gccProblem(bearer("fm:0e1.0e02.10170"))).toBe(
      "GCC 0e1 has country id 0, which no country has",
    );
    expect(gccProblem(bearer("fm:4fa.4e02.10170"))).toBe("GCC 4fa has ECC fa, outside a0–f9");
    expect(gccProblem(bearer("fm:49f.4e02.10170"))).toBe("GCC 49f has ECC 9f, outside a0–f9");
  });
});
