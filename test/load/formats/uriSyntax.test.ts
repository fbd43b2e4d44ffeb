import { describe, expect, it } from "vitest";
import { parseUri } from "../../../src/load/formats/uriSyntax.js";

describe("parseUri", () => {
  it("accepts the URIs SPI documents carry, with their scheme and host", () => {
    expect(parseUri("https://www.radio.example/news?x=1#top")).toEqual({
      ok: true,
      scheme: "https",
      host: "www.radio.example",
    });
    expect(parseUri("HTTP://[::1]:8080/")).toEqual({ ok: true, scheme: "http", host: "[::1]" });
    for (const uri of [
      "tel:+44-020-77666000",
      "sms:12345?body=more%20info",
      "postal:Kingswood%20Warren/Tadworth/Surrey/KT20%206NP/United%20Kingdom/",
      "mailto:studio@radio.example",
      "crid://radio.example/show/1",
      "dab:ce1.c185.c479.0",
      "https://bücher.example/straße",
    ]) {
      expect(parseUri(uri), uri).toMatchObject({ ok: true });
    }
  });

  it("says why a text is not a URI", () => {
    expect(parseUri("www.radio.example")).toEqual({
      ok: false,
      reason: "has no scheme (such as https:)",
    });
    expect(parseUri("http://[::1")).toEqual({ ok: false, reason: "has a [ without its ]" });
    expect(parseUri("http://[nope]/")).toEqual({
      ok: false,
      reason: "[nope] is not an IPv6 address",
    });
    expect(parseUri("https://a.example/100%")).toEqual({
      ok: false,
      reason: "has a % not followed by two hex digits",
    });
    expect(parseUri("https://a.example/a b")).toEqual({
      ok: false,
      reason: "contains white space (write a space as %20)",
    });
    expect(parseUri("https://a.example:99999/")).toEqual({
      ok: false,
      reason: "port 99999 is beyond 65535",
    });
    expect(parseUri('https://a.example/"q"')).toEqual({
      ok: false,
      reason: 'contains "\\"", which a URI must percent-encode',
    });
  });
});
