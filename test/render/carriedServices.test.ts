import { describe, expect, it } from "vitest";
import { serviceEntries, withServiceEntries } from "../../src/render/carriedServices.js";

const entry = (id: string) =>
  `    <service>\n      <longName>${id}</longName>\n      <radiodns fqdn="rdns.test.example" serviceIdentifier="${id}"/>\n    </service>\n`;
const si = (...ids: string[]) =>
  `<serviceInformation>\n  <services>\n    <serviceProvider/>\n${ids.map(entry).join("")}  </services>\n</serviceInformation>\n`;

describe("carried service entries", () => {
  it("are found by their radiodns service id, whole", () => {
    const found = serviceEntries(si("one", "two", "three"), new Set(["two", "four"]));
    expect([...found]).toEqual([["two", entry("two")]]);
  });

  it("go after the last service, and nothing changes without any", () => {
    const tonight = Buffer.from(si("one"));
    expect(withServiceEntries(tonight, [entry("two")]).toString()).toBe(si("one", "two"));
    expect(withServiceEntries(tonight, [])).toBe(tonight);
  });
});
