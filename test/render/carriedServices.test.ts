import { describe, expect, it } from "vitest";
import { serviceEntries, withServiceEntries } from "../../src/render/carriedServices.js";

const entry = (id: string, fqdn = "rdns.test.example") =>
  `    <service>\n      <longName>${id}</longName>\n      <radiodns fqdn="${fqdn}" serviceIdentifier="${id}"/>\n    </service>\n`;
const si = (...ids: string[]) =>
  `<serviceInformation>\n  <services>\n    <serviceProvider/>\n${ids.map((id) => entry(id)).join("")}  </services>\n</serviceInformation>\n`;

describe("carried service entries", () => {
  it("are found by their radiodns key (FQDN and serviceIdentifier), whole", () => {
    const found = serviceEntries(
      si("one", "two", "three"),
      new Set(["rdns.test.example/two", "rdns.test.example/four", "other.example/three"]),
    );
    expect([...found]).toEqual([["rdns.test.example/two", entry("two")]]);
  });

  it("go after the last service, and nothing changes without any", () => {
    const tonight = Buffer.from(si("one"));
    expect(withServiceEntries(tonight, [entry("two")]).toString()).toBe(si("one", "two"));
    expect(withServiceEntries(tonight, [])).toBe(tonight);
  });
});
