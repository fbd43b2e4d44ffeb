import { describe, expect, it } from "vitest";
import type { Broadcaster } from "../../src/load/model/broadcaster.js";
import { renderServiceInformation } from "../../src/render/renderServiceInformation.js";
import { validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";
import { makeProvider } from "../fixtures/makeProvider.js";
import { makeService } from "../fixtures/makeService.js";

function broadcaster(): Broadcaster {
  const pop = makeService({ daily: ["00:00 music"] });
  Object.assign(pop, {
    id: "pop",
    radiodns: { fqdn: "rdns.radio.example", serviceIdentifier: "pop" },
    logos: [
      {
        url: "https://img.radio.example/pop/32.png",
        width: 32,
        height: 32,
        type: "logo_colour_square",
        mimeValue: "image/png",
      },
      {
        url: "https://img.radio.example/pop/600.png",
        width: 600,
        height: 600,
        type: "logo_unrestricted",
        mimeValue: "image/png",
      },
    ],
    keywords: ["pop", "charts"],
    groups: ["music"],
    links: [{ uri: "https://radio.example/pop", mimeValue: "text/html", description: "Website" }],
    geolocation: {
      countries: ["CH"],
      point: undefined,
      polygon: [
        [47, 7],
        [47, 8.25],
        [46.5, 8.25],
        [47, 7],
      ],
    },
    bearers: [
      { id: "dab:4e1.4fe1.4e02.0", cost: 20, mimeValue: "audio/aacp", bitrate: 96 },
      { id: "fm:4e1.4e02.10170", cost: 50 },
    ],
    streams: [
      {
        id: "https://stream.radio.example/pop.aac",
        cost: 100,
        mimeValue: "audio/aacp",
        bitrate: 128,
      },
    ],
  });
  const klassik = makeService({ daily: ["00:00 musik"] });
  Object.assign(klassik, {
    id: "klassik",
    // Its own Authoritative FQDN and serviceIdentifier (issue 25).
    radiodns: { fqdn: "klassik.radio.example", serviceIdentifier: "classics" },
    language: "de",
    name: { short: "Klassik", long: "Radio Klassik" },
    description: { short: "Klassische Musik." },
    genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.6.1", name: "Klassik" }],
    keywords: ["Oper"],
    links: [{ uri: "https://radio.example/klassik", description: "Webseite" }],
    translations: {
      fr: { name: { short: "Classiq", long: "Radio Classique" }, keywords: ["opéra"] },
      en: {
        name: { short: "Classic", medium: "Classic Radio" },
        description: { short: "Classical music." },
        links: [{ uri: "https://radio.example/classic", description: "Website" }],
      },
    },
  });
  return {
    provider: makeProvider({
      name: { short: "Test", long: "Test Radio Group" },
      description: { short: "Radio for tests." },
      keywords: ["radio"],
      geolocation: { countries: ["CH", "LI"], point: [46.948, 7.4474], polygon: undefined },
      serviceGroups: [
        {
          id: "music",
          name: { short: "Music", long: "Music & more" },
          description: { short: "Pop and classical." },
          logos: [],
          genres: [{ href: "urn:tva:metadata:cs:ContentCS:2011:3.6", name: "Music" }],
          keywords: [],
          links: [],
          translations: { de: { name: { short: "Musik", long: "Musik und mehr" } } },
          geolocation: { countries: ["CH"], point: undefined, polygon: undefined },
        },
      ],
    }),
    services: [klassik, pop],
  };
}

const createdAt = Date.parse("2026-11-23T08:00:00Z");

describe("renderServiceInformation", () => {
  const open = renderServiceInformation({
    broadcaster: broadcaster(),
    withStreams: false,
    createdAt,
  }).toString("utf8");
  const keyed = renderServiceInformation({
    broadcaster: broadcaster(),
    withStreams: true,
    createdAt,
  }).toString("utf8");

  it("writes documents that validate against the XSD", async () => {
    expect(
      await validateSpiDocuments([
        { name: "open", xml: open },
        { name: "keyed", xml: keyed },
      ]),
    ).toEqual([]);
  });

  it("differs between the open and the keyed document exactly by the stream bearers", () => {
    const openLines = open.split("\n");
    const added = keyed.split("\n").filter((line) => !openLines.includes(line));
    expect(added).toEqual([
      '      <bearer id="https://stream.radio.example/pop.aac" cost="100" mimeValue="audio/aacp" bitrate="128"/>',
    ]);
    expect(keyed.split("\n").filter((line) => line !== added[0])).toEqual(openLines);
    expect(open).not.toContain("stream.radio.example");
  });

  it("writes fixed-size logos without size and type details, other logos with them", () => {
    expect(open).toContain(
      '<multimedia type="logo_colour_square" url="https://img.radio.example/pop/32.png"/>',
    );
    expect(open).toContain(
      '<multimedia type="logo_unrestricted" url="https://img.radio.example/pop/600.png" mimeValue="image/png" width="600" height="600"/>',
    );
  });

  it("names the RadioDNS identity, keywords and bearers", () => {
    expect(open).toContain('<radiodns fqdn="rdns.radio.example" serviceIdentifier="pop"/>');
    expect(open).toContain("<keywords>pop, charts</keywords>");
    expect(open).toContain('<bearer id="fm:4e1.4e02.10170" cost="50"/>');
  });

  it("names a service's own FQDN and serviceIdentifier, not the provider's host and its id", () => {
    expect(open).toContain('<radiodns fqdn="klassik.radio.example" serviceIdentifier="classics"/>');
    expect(open).not.toContain('serviceIdentifier="klassik"');
    expect(keyed).toContain(
      '<radiodns fqdn="klassik.radio.example" serviceIdentifier="classics"/>',
    );
  });

  it("writes geolocations as geoRSS lists, latitude first, and a DAB bearer's bitrate", () => {
    expect(open).toContain(
      [
        '<link uri="https://radio.example/pop" mimeValue="text/html" description="Website"/>',
        '<bearer id="dab:4e1.4fe1.4e02.0" cost="20" mimeValue="audio/aacp" bitrate="96"/>',
        '<bearer id="fm:4e1.4e02.10170" cost="50"/>',
        '<radiodns fqdn="rdns.radio.example" serviceIdentifier="pop"/>',
        "<geolocation>",
        "  <country>CH</country>",
        "  <polygon>47 7 47 8.25 46.5 8.25 47 7</polygon>",
        "</geolocation>",
      ].join("\n      "),
    );
    expect(open).toContain(
      [
        "<keywords>radio</keywords>",
        "<geolocation>",
        "  <country>CH</country>",
        "  <country>LI</country>",
        "  <point>46.948 7.4474</point>",
        "</geolocation>",
      ].join("\n      "),
    );
  });

  it("writes the service groups after the services, and each member's serviceGroupMember", () => {
    expect(open).toContain(
      '      </geolocation>\n      <serviceGroupMember id="music"/>\n    </service>\n  </services>',
    );
    expect(open.slice(open.indexOf("</services>"))).toBe(
      [
        "</services>",
        "  <serviceGroups>",
        '    <serviceGroup id="music">',
        "      <shortName>Music</shortName>",
        '      <shortName xml:lang="de">Musik</shortName>',
        "      <mediumName>Music &amp; more</mediumName>",
        '      <mediumName xml:lang="de">Musik und mehr</mediumName>',
        "      <longName>Music &amp; more</longName>",
        '      <longName xml:lang="de">Musik und mehr</longName>',
        "      <mediaDescription>",
        "        <shortDescription>Pop and classical.</shortDescription>",
        "      </mediaDescription>",
        '      <genre href="urn:tva:metadata:cs:ContentCS:2011:3.6" type="main">Music</genre>',
        "      <geolocation>",
        "        <country>CH</country>",
        "      </geolocation>",
        "    </serviceGroup>",
        "  </serviceGroups>",
        "</serviceInformation>",
        "",
      ].join("\n"),
    );
  });

  it("writes a service's texts in every language, the document's first and untagged, every other tagged", () => {
    const service = open.slice(open.indexOf("<service>"), open.indexOf("</service>"));
    const texts = service
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => !line.startsWith("<mediaDescription") && !line.startsWith("</media"));
    expect(texts.slice(0, 14)).toEqual([
      "<service>",
      "<shortName>Classic</shortName>",
      '<shortName xml:lang="de">Klassik</shortName>',
      '<shortName xml:lang="fr">Classiq</shortName>',
      "<mediumName>Classic Radio</mediumName>",
      '<mediumName xml:lang="de">Radio Klassik</mediumName>',
      '<mediumName xml:lang="fr">Radio Classique</mediumName>',
      '<longName xml:lang="de">Radio Klassik</longName>',
      '<longName xml:lang="fr">Radio Classique</longName>',
      "<shortDescription>Classical music.</shortDescription>",
      '<shortDescription xml:lang="de">Klassische Musik.</shortDescription>',
      '<genre href="urn:tva:metadata:cs:ContentCS:2011:3.6.1" type="main" xml:lang="de">Klassik</genre>',
      '<keywords xml:lang="de">Oper</keywords>',
      '<keywords xml:lang="fr">opéra</keywords>',
    ]);
    expect(texts.slice(14, 16)).toEqual([
      '<link uri="https://radio.example/classic" description="Website"/>',
      '<link uri="https://radio.example/klassik" xml:lang="de" description="Webseite"/>',
    ]);
  });

  it("writes a provider's translations after its own texts, each tagged", () => {
    const withFrench = broadcaster();
    const provider = {
      ...withFrench.provider,
      translations: { fr: { name: { short: "Essai", long: "Groupe Test" } } },
    };
    const xml = renderServiceInformation({
      broadcaster: { ...withFrench, provider },
      withStreams: false,
      createdAt,
    }).toString("utf8");
    expect(xml).toContain(
      [
        "<shortName>Test</shortName>",
        '<shortName xml:lang="fr">Essai</shortName>',
        "<mediumName>Test Radio Group</mediumName>",
        '<mediumName xml:lang="fr">Groupe Test</mediumName>',
        "<longName>Test Radio Group</longName>",
        '<longName xml:lang="fr">Groupe Test</longName>',
      ].join("\n      "),
    );
  });
});
