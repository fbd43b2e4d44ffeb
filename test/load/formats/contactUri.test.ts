import { describe, expect, it } from "vitest";
import { linkUriProblem } from "../../../src/load/formats/linkUri.js";

describe("contact links (tel, sms, mailto, postal)", () => {
  it("accepts what a phone, SMS, mail or address book client can use", () => {
    for (const uri of [
      "tel:+41-31-000-00-00",
      "tel:+41.31.000.00.00;ext=12",
      "tel:7042;phone-context=example.com",
      "TEL:+41310000000",
      "sms:83958",
      "sms:+41791234567,+41797654321?body=Hello%20studio",
      "mailto:studio@aareradio.example",
      "mailto:studio@aareradio.example,news@aareradio.example?subject=Traffic",
      "postal:Global%20Radio/30%20Leicester%20Square/London/WC2H%207LA",
    ]) {
      expect(linkUriProblem(uri), uri).toBeUndefined();
    }
  });

  it("refuses numbers and addresses that reach no one, saying how to write them", () => {
    expect(linkUriProblem("tel:+41 31 000 00 00")).toBe(
      '"tel:+41 31 000 00 00" has white space: separate the digits with - (tel:+41-31-123-45-67)',
    );
    expect(linkUriProblem("tel:031-000-00-00")).toBe(
      '"tel:031-000-00-00" is a local number: write it in international form (tel:+41-31-123-45-67) or add ;phone-context=',
    );
    expect(linkUriProblem("tel:studio")).toBe(
      '"tel:studio" is not a telephone number (RFC 3966: tel:+41-31-123-45-67)',
    );
    expect(linkUriProblem("sms:83958?hello")).toBe(
      '"sms:83958?hello" has a query that is not name=value pairs (e.g. sms:+41791234567?body=Hello)',
    );
    expect(linkUriProblem("mailto:studio")).toBe(
      '"mailto:studio" needs an e-mail address (mailto:studio@radio.example), not "studio"',
    );
    expect(linkUriProblem("postal:Aare Radio/Bahnhofplatz 1, Bern")).toBe(
      '"postal:Aare Radio/Bahnhofplatz 1, Bern" is not a postal address URI (TS 102 818 A.1: parts separated by /, each percent-encoded): write "postal:Aare%20Radio/Bahnhofplatz%201%2C%20Bern"',
    );
    expect(linkUriProblem("postal:")).toBe(
      '"postal:" has no address (postal:Aare%20Radio/Bahnhofplatz%201/3011%20Bern)',
    );
  });
});
