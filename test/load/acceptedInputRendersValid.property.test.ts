import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadAndSchedule } from "../../src/loadAndSchedule.js";
import { renderSite } from "../../src/render/renderSite.js";
import { type SpiDocument, validateSpiDocuments } from "../../src/xsd/validateSpiDocuments.js";

/**
 * The load stage's promise: whatever `validate` accepts builds into documents that spi_31.xsd
 * accepts. Data folders are generated as values, written as YAML and read back by the real
 * loader; fields are left out or filled with good values, near misses (`png`, `text html`,
 * `en-verylongsubtag`, `http://[::1`) and arbitrary text, so both the rules and the rendering
 * are tried. Each accepted folder is scheduled and rendered at a fixed clock.
 *
 * Half of the runs also set one field to a near miss from the issues (see nearMisses).
 * 120 runs (SPI_PROPERTY_RUNS sets another number) take 15-25 s on the shared 2-core machine,
 * mostly generating, loading and rendering; the documents of the 35-55 accepted folders
 * go through xmllint in one call. The test checks that more than a tenth of the folders were
 * accepted, so it cannot pass by refusing everything (about a quarter to a third are: a floor of a
 * fifth failed now and then on a fair draw).
 */
const RUNS = Number(process.env.SPI_PROPERTY_RUNS ?? 120);
const NOW = Date.parse("2026-11-23T08:00:00Z");

const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);
const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
/**
 * A value that is usually fine and now and then a mistake: with some hundred fields per folder
 * (shows, episodes, events and on-demand included), most folders have none and are accepted (a
 * near miss is tried on purpose below).
 */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 400, arbitrary: good }, { weight: 1, arbitrary: bad });

/** Text XML and YAML find awkward but SPI can carry: markup, white space a parser changes, emoji. */
const awkwardText = fc.oneof(
  oneOf("Aare", "Talk & <Tea>", 'Say "hi"', "tab\there", "CR\ronly", "two\nlines", " padded "),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }),
);
const text = (max: number) =>
  mostly(
    awkwardText.filter((t) => Array.from(t).length <= max),
    fc.oneof(
      fc.string({ unit: "binary", minLength: 1, maxLength: 6 }),
      fc.constant("x".repeat(max + 1)),
    ),
  );

const names = (shortRequired: boolean) =>
  fc.record(
    {
      short: text(8),
      medium: text(16),
      long: fc.oneof(text(128), oneOf("A long name of a programme")),
    },
    { requiredKeys: shortRequired ? ["long", "short"] : ["long"] },
  );

const description = optional(
  fc.record({ short: text(180), long: text(1200) }, { requiredKeys: [] }),
);

const mediaType = mostly(
  oneOf("text/html", "image/png", "image/jpeg", "application/xml+pi", "audio/aacp"),
  oneOf("png", "html", "text html", "text/html; charset=utf-8", " text/html", "text/", "a/b/c"),
);

const language = mostly(
  oneOf("en", "de", "de-CH", "gsw", "de-1996"),
  oneOf("en-verylongsubtag", "EN", "en-", "x", "en-a"),
);

const httpUrl = mostly(
  oneOf(
    "https://img.test.example/a.png",
    "https://img.test.example/a.png#x",
    "https://img.test.example/a.jpg",
    "HTTPS://IMG.TEST.EXAMPLE/A.PNG",
    "http://[::1]/logo.png",
    "https://bücher.example/ä.png",
    "https://img.test.example/a%20b.png?size=1&x=%C3%A4",
  ),
  oneOf(
    "http://[::1",
    "https://img.test.example/100%.png",
    "https://img.test.example/a b.png",
    "ftp://img.test.example/a.png",
    "https:///a.png",
    "https://img.test.example/<a>.png",
  ),
);

const linkUri = fc.oneof(
  httpUrl,
  mostly(
    oneOf(
      "tel:+41-31-000-00-00",
      "sms:83958?body=hi",
      "mailto:studio@test.example",
      "postal:Studio/1%20Aare%20Street/Bern",
      "crid://test.example/show/1",
      "dab:4e1.4fe1.4e01.0",
      "https://www.test.example/?q=a&b=c",
    ),
    oneOf(
      "javascript:alert(1)",
      "data:text/html,hi",
      "file:///etc/passwd",
      "https://www.test.example/#frag#frag",
      "tel:+41 31",
    ),
  ),
);

/**
 * Like mostly, but wrong less often: fields most folders leave out still should not make most
 * folders refused (their near misses are tried on purpose below).
 */
const seldomWrong = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 600, arbitrary: good }, { weight: 1, arbitrary: bad });

/** A programme's CRID in the broadcast EPG, and a broadcast event's locator (issue 14). */
const terrestrialCrid = seldomWrong(
  oneOf("crid://dab.test.example/8812", "crid://Test.Example/a/b", "crid://test.example/%C3%A4"),
  oneOf("crid://x", "dab.test.example/1", "crid://test.example/100%", "crid://test.example/a b"),
);
const eventLocator = seldomWrong(
  oneOf(
    "dvb://233a.1004.1044;1f3",
    "dvb://233a..1044;1f3~20261123T050000Z--PT1H",
    "dab:4e1.4fe1.4e01.0",
    "fm:4e1.4e12.09580",
  ),
  oneOf("https://radio.test.example/e/1", "dvb://a b", "javascript:alert(1)", "dvb://1;<x>"),
);

const link = fc.record(
  { uri: linkUri, mimeValue: mediaType, description: text(180) },
  { requiredKeys: ["uri"] },
);

/** A link without mistakes, for the many new places links go (their mistakes are near misses). */
const goodLink = fc.record(
  {
    uri: oneOf(
      "https://www.test.example/?q=a&b=c",
      "tel:+41-31-000-00-00",
      "sms:83958?body=hi",
      "mailto:studio@test.example",
      "postal:Studio/1%20Aare%20Street/Bern",
    ),
    mimeValue: oneOf("text/html", "application/xml+pi"),
    description: awkwardText.filter((t) => Array.from(t).length <= 180),
  },
  { requiredKeys: ["uri"] },
);

/**
 * Texts in another language, tagged mostly unlike the owners' own languages. Their text is
 * always within the limits: there are so many of them that random mistakes would refuse most
 * folders; the near misses below try the mistakes.
 */
const fitting = (max: number) => awkwardText.filter((t) => Array.from(t).length <= max);
const translations = optional(
  fc.dictionary(
    mostly(oneOf("fr", "it", "en-GB", "rm", "fr-CH"), oneOf("fr-verylongsubtag", "FR", "f")),
    fc.record(
      {
        name: fc.record(
          { short: fitting(8), medium: fitting(16), long: fitting(128) },
          { requiredKeys: [] },
        ),
        description: fc.record({ short: fitting(180), long: fitting(1200) }, { requiredKeys: [] }),
        keywords: fc.array(fitting(20), { maxLength: 2 }),
        links: fc.array(goodLink, { maxLength: 1 }),
      },
      { requiredKeys: [] },
    ),
    { maxKeys: 2 },
  ),
);

const latitude = fc.double({ min: -90, max: 90, noNaN: true });
const longitude = fc.double({ min: -180, max: 180, noNaN: true });
const position = fc.tuple(latitude, longitude);
/** Always within the rules: the mistakes are near misses, so that most folders stay accepted. */
const geolocation = optional(
  fc
    .record(
      {
        country: fc.oneof(
          oneOf("CH", "ch", "LI", "DE"),
          fc.array(oneOf("CH", "FR", "IT"), { minLength: 1 }),
        ),
        point: position,
        polygon: fc
          .array(position, { minLength: 3, maxLength: 12 })
          .map((points): number[][] => [...points, points[0] ?? [0, 0]]),
      },
      { requiredKeys: [] },
    )
    .filter((g) => Object.keys(g).length > 0),
);

const logo = fc.record(
  {
    url: httpUrl,
    size: mostly(oneOf("32x32", "112x32", "128x128", "600x600"), oneOf("0x5", "32X32")),
    type: mostly(oneOf("logo_unrestricted"), oneOf("logo_colour_square", "logo_colour_rectangle")),
    mimeValue: mostly(oneOf("image/png"), oneOf("image/jpeg", "text/html", "png")),
  },
  { requiredKeys: ["url", "size"] },
);

/** A logo source (docs/logos.md): the SVGs every generated folder has, or one that cannot be. */
type LogoSourceValue = string | { source: string; background?: string; rectangle?: string };
const logoSource = mostly<LogoSourceValue>(
  oneOf<LogoSourceValue>(
    "logos/square.svg",
    { source: "logos/wide.svg", background: "#1b1035" },
    {
      source: "logos/square.svg",
      rectangle: "logos/wide.svg",
    },
  ),
  oneOf("logos/wide.svg", "logos/missing.svg", "/etc/logo.svg"),
);
const SQUARE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><title>t</title><rect width="10" height="10" fill="#c00"/></svg>`;
const WIDE_SVG = SQUARE_SVG.replace('width="10" height="10">', 'width="40" height="10">');

const hex = (digits: number) =>
  fc.string({ unit: oneOf(..."0123456789abcdef"), minLength: digits, maxLength: digits });
/** A country id and an allocated ECC: the GCC a radio builds (validate refuses any other). */
const country = fc.tuple(
  oneOf(..."123456789abcdef"),
  fc.integer({ min: 0xa0, max: 0xf9 }).map((ecc) => ecc.toString(16)),
);
const dabBearer = fc.record(
  {
    id: fc
      .tuple(country, hex(4), mostly(fc.oneof(hex(3), hex(5)), hex(6)), fc.boolean(), hex(1))
      .map(([[id, ecc], eid, ref, long, scids]) => {
        const sid =
          ref.length === 5 || long ? `${ecc}${id}${ref.padStart(5, "0").slice(-5)}` : `${id}${ref}`;
        return `dab:${id}${ecc}.${eid}.${sid}.${scids}`;
      }),
    mimeValue: oneOf("audio/mpeg", "audio/aacp"),
    bitrate: fc.integer({ min: 1, max: 48 }).map((n) => n * 8),
    cost: fc.nat(100),
    offset: fc.nat(5000),
  },
  { requiredKeys: ["id", "mimeValue"] },
);
const fmBearer = fc.record(
  {
    id: fc
      .tuple(country, hex(3), fc.integer({ min: 8750, max: 10800 }))
      .map(
        ([[id, ecc], pi, frequency]) =>
          `fm:${id}${ecc}.${id}${pi}.${String(frequency).padStart(5, "0")}`,
      ),
    cost: fc.nat(100),
  },
  { requiredKeys: ["id"] },
);
/** HD Radio, DRM and AMSS bearers (TS 103 270): a cost is required, as no default is given. */
const hdBearer = fc.record(
  { id: fc.tuple(hex(3), hex(5)).map(([cc, tx]) => `hd:${cc}.${tx}`), cost: fc.nat(100) },
  { requiredKeys: ["id", "cost"] },
);
const drmBearer = fc.record(
  {
    id: hex(6).map((sid) => `drm:${sid}`),
    cost: fc.nat(100),
    mimeValue: oneOf("audio/mpeg", "audio/aacp", "audio/xhe-aac"),
  },
  { requiredKeys: ["id", "cost", "mimeValue"] },
);
const amssBearer = fc.record(
  { id: hex(6).map((sid) => `amss:${sid}`), cost: fc.nat(100) },
  { requiredKeys: ["id", "cost"] },
);
const stream = fc.record(
  { url: httpUrl, mimeValue: mediaType, bitrate: fc.integer({ min: 1, max: 320 }) },
  // bitrate is optional: an HLS, DASH or VBR stream leaves it out (TS 102 818 V3.5.1 §5.11.4).
  { requiredKeys: ["url", "mimeValue"] },
);

const genre = fc.record(
  {
    href: oneOf(
      "urn:tva:metadata:cs:ContentCS:2011:3.6.1",
      "urn:tva:metadata:cs:ContentCS:2011:3.1.1",
    ),
    name: text(40),
    type: oneOf("main", "secondary", "other"),
  },
  { requiredKeys: ["href", "name"] },
);

const timeZone = mostly(
  oneOf("Europe/Zurich", "America/New_York", "Asia/Kathmandu", "UTC"),
  oneOf("Zurich", "Europe/Zürich"),
);

/** Its fields always within the rules, as a translation's (its mistakes are near misses). */
const serviceGroup = fc.record(
  {
    name: fc.record(
      { short: fitting(8), medium: fitting(16), long: fitting(128) },
      { requiredKeys: ["short", "long"] },
    ),
    description: fc.record({ short: fitting(180), long: fitting(1200) }, { requiredKeys: [] }),
    logos: fc.subarray([
      { url: "https://img.test.example/group/32x32.png", size: "32x32" },
      { url: "https://img.test.example/group/600x600.jpg", size: "600x600" },
    ]),
    genres: fc.array(
      fc.record({
        href: oneOf("urn:tva:metadata:cs:ContentCS:2011:3.6"),
        name: fitting(40),
        type: oneOf("main", "secondary"),
      }),
      { maxLength: 1 },
    ),
    keywords: fc.array(fitting(20), { maxLength: 2 }),
    links: fc.array(goodLink, { maxLength: 1 }),
    translations,
    geolocation,
  },
  { requiredKeys: ["name"] },
);

const provider = fc.record(
  {
    // SPI's serviceProvider needs a shortName: a provider without one must be refused.
    name: mostly(names(true), names(false)),
    description,
    originator: text(128),
    language,
    timeZone,
    radiodnsHost: mostly(
      oneOf("rdns.test.example", "xn--bcher-kva.example"),
      oneOf("192.0.2.1", "localhost", "a-.test.example", `${"a".repeat(70)}.example`),
    ),
    cridAuthority: oneOf("test.example", "radio.test.example"),
    piMarginHours: mostly(fc.integer({ min: 0, max: 11 }), oneOf(12, 24)),
    shortIds: seldomWrong(oneOf("zero", "unique"), oneOf("yes", "Unique")),
    logos: fc.array(logo, { maxLength: 3 }),
    logo: logoSource,
    links: fc.array(link, { maxLength: 2 }),
    keywords: fc.array(text(20), { maxLength: 3 }),
    translations,
    geolocation,
    // Services join "music" (always defined) and now and then a group that is not.
    serviceGroups: fc.record(
      { music: serviceGroup, talk: serviceGroup },
      { requiredKeys: ["music"] },
    ),
  },
  {
    requiredKeys: [
      "name",
      "originator",
      "language",
      "timeZone",
      "radiodnsHost",
      "cridAuthority",
      "serviceGroups",
    ],
  },
);

const service = (id: string) =>
  fc.record(
    {
      id: fc.constant(id),
      name: names(true),
      description,
      language: optional(language),
      timeZone: optional(timeZone),
      shortIds: seldomWrong(oneOf("zero", "unique"), oneOf("on", "")),
      logos: fc.array(logo, { maxLength: 3 }),
      logo: logoSource,
      genres: fc.array(genre, { minLength: 1, maxLength: 2 }),
      keywords: fc.array(text(20), { maxLength: 2 }),
      links: fc.array(link, { maxLength: 2 }),
      translations,
      geolocation,
      groups: fc.subarray(["music"]),
      // Mostly given when the service's language is not the provider's (TS 102 818 §6.5).
      namesInProviderLanguage: mostly(names(true), fc.constant(undefined)),
      bearers: fc.record(
        {
          dab: fc.array(dabBearer, { maxLength: 2 }),
          fm: fc.array(fmBearer, { maxLength: 1 }),
          hd: fc.array(hdBearer, { maxLength: 1 }),
          drm: fc.array(drmBearer, { maxLength: 1 }),
          amss: fc.array(amssBearer, { maxLength: 1 }),
        },
        { requiredKeys: [] },
      ),
      streams: fc.array(stream, { maxLength: 2 }),
      // Its own RadioDNS FQDN and serviceIdentifier (issue 25): both services may pick one pair.
      radiodns: fc.record(
        {
          fqdn: mostly(
            oneOf("own.test.example", "rdns.test.example", "xn--bcher-kva.example"),
            oneOf("192.0.2.9", "Own.Example", "own_host.example"),
          ),
          serviceIdentifier: mostly(oneOf("one", "two", "shared"), oneOf("a/b", "", "Upper")),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ["id", "name", "genres", "namesInProviderLanguage"] },
  );

const clock = fc
  .tuple(fc.integer({ min: 0, max: 23 }), oneOf(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}`);

const span = (good: string[], bad: string[]) => mostly(oneOf(...good), oneOf(...bad));

/** Segments that mostly fit in the shortest airing (15 minutes); now and then one that cannot. */
const programmeEvent = fc.record(
  {
    name: names(false),
    offset: span(["00:00", "00:05", "00:10"], ["30:00", "0:05"]),
    duration: span(["00:05", "00:01"], ["00:00"]),
    every: span(["00:15", "00:30", "01:00"], ["00:02"]),
    description,
    keywords: fc.array(text(20), { maxLength: 1 }),
    links: fc.array(link, { maxLength: 1 }),
  },
  { requiredKeys: ["name", "offset", "duration"] },
);

const instant = (good: string) =>
  mostly(oneOf(good), oneOf("2026-11-24T10:00", "2026-11-24 10:00Z", "2026-02-30T10:00Z"));

/** Availability as people write it: for some days, between two dates, until one, or for ever. */
const availability = fc.oneof(
  fc.constant({}),
  fc.record({ availableDays: mostly(fc.integer({ min: 1, max: 30 }), oneOf(0, 1.5)) }),
  fc.record({
    availableFrom: instant("2026-11-20T10:00+01:00"),
    availableUntil: instant("2027-01-31T23:59:59-05:00"),
  }),
  fc.record({ availableUntil: instant("2027-12-31T00:00Z") }),
);

const onDemand = fc
  .record(
    {
      files: fc.array(
        fc.record(
          {
            url: httpUrl,
            mimeValue: mostly(oneOf("audio/mpeg", "audio/aacp"), oneOf("mp3", "audio mpeg")),
            bitrate: fc.integer({ min: 1, max: 320 }),
            cost: fc.nat(200),
          },
          { requiredKeys: ["url", "mimeValue"] },
        ),
        { minLength: 1, maxLength: 2 },
      ),
      duration: span(["00:30", "02:00"], ["00:00", "2:00"]),
      availability,
    },
    { requiredKeys: ["files", "availability"] },
  )
  .map(({ availability, ...rest }) => ({ ...rest, ...availability }));

/** What a show, an episode and an event publish (an episode gives any of them, none required). */
const programmeFields = {
  description,
  images: fc.array(
    fc.record(
      {
        url: mostly(httpUrl, oneOf("https://img.test.example/image")),
        size: oneOf("600x600", "320x240"),
        mimeValue: mediaType,
      },
      { requiredKeys: ["url", "size"] },
    ),
    { maxLength: 2 },
  ),
  website: httpUrl,
  genres: fc.array(genre, { maxLength: 1 }),
  keywords: fc.array(text(20), { maxLength: 2 }),
  links: fc.array(link, { maxLength: 1 }),
  translations,
  group: mostly(
    oneOf("crid://test.example/group/1"),
    oneOf("crid://test.example/100%", "crid://x"),
  ),
  groupShortId: mostly(fc.integer({ min: 1, max: 16_777_215 }), oneOf(0, 16_777_216)),
  events: fc.array(programmeEvent, { maxLength: 1 }),
  onDemand: fc.option(onDemand, { nil: undefined, freq: 3 }),
  terrestrialProgrammeCrid: terrestrialCrid,
};

/**
 * An episode of the first slot's airing (morning) on a day no special touches: by its start, or
 * its start and show (morning may air more than once a day). `date` is mostly left to the
 * schedule below; now and then it is one that is not in the calendar, or long past.
 */
const episode = fc.record(
  {
    // Its own text; the rest of the fields are the show's, tried with the shows above.
    name: names(false),
    description,
    keywords: fc.array(text(20), { maxLength: 2 }),
    links: fc.array(link, { maxLength: 1 }),
    events: fc.array(programmeEvent, { maxLength: 1 }),
    onDemand,
    date: mostly(fc.constant(undefined), oneOf("2026-11-31", "2026-10-01")),
    by: oneOf("start", "both"),
    crid: mostly(
      fc.nat().map((n) => `crid://test.example/episode/${n}`),
      oneOf("crid://test.example/100%", "crid:/x"),
    ),
    terrestrialProgrammeCrid: terrestrialCrid,
    terrestrialEventLocator: eventLocator,
  },
  { requiredKeys: ["by"] },
);

const show = fc.record(
  {
    name: names(false),
    ...programmeFields,
  },
  { requiredKeys: ["name"] },
);

const schedule = fc
  .record({
    shows: fc.record({ morning: show, night: show }),
    starts: fc.uniqueArray(clock, { minLength: 1, maxLength: 4 }),
    // An end mostly runs into the next slot: overlaps are refused, which is not what is tried here.
    ends: fc.array(mostly(fc.constant(undefined), clock), { minLength: 4, maxLength: 4 }),
    special: optional(fc.tuple(clock, clock)),
    // One in the schedule file, one in a file of episodes/<service id>/.
    episodes: fc.array(episode, { maxLength: 1 }),
    episodeFile: fc.array(episode, { maxLength: 1 }),
  })
  .map(({ shows, starts, ends, special, episodes, episodeFile }) => {
    const first = [...starts].sort()[0] as string;
    // `by` picks how it names its airing; the first slot's show airs once a day, at `first`.
    const toEpisode =
      (day: string) =>
      ({ by, date, ...fields }: Record<string, unknown>) => ({
        date: date ?? day,
        start: first,
        ...(by === "both" ? { show: "morning" } : {}),
        ...fields,
      });
    return {
      shows,
      ...(episodes.length > 0 ? { episodes: episodes.map(toEpisode("2026-11-24")) } : {}),
      episodeFile: episodeFile.map(toEpisode("2026-11-27")),
      grid: [
        {
          days: "daily",
          slots: [...starts].sort().map((start, i) => ({
            start,
            ...(ends[i] === undefined ? {} : { end: ends[i] }),
            show: i % 2 === 0 ? "morning" : "night",
          })),
        },
      ],
      ...(special
        ? {
            dates: [
              {
                date: "2026-11-25",
                specials: [{ start: special[0], end: special[1], show: "night" }],
              },
            ],
          }
        : {}),
    };
  });

type Folder = {
  provider: Record<string, unknown> & { name: Record<string, unknown> };
  services: [Record<string, unknown>, Record<string, unknown>, Schedule, Schedule];
};
type Schedule = { shows: Record<string, Record<string, unknown>> } & Record<string, unknown>;

/**
 * One field of an otherwise generated folder set to a value the schema must refuse, or must
 * render so that it stays valid: the inputs the issues found accepted and published invalid.
 */
const nearMisses: [string, (folder: Folder) => void][] = [
  ["provider without name.short", (f) => delete f.provider.name.short],
  ["language with a long subtag", (f) => (f.provider.language = "en-verylongsubtag")],
  ["service language with a long subtag", (f) => (f.services[0].language = "de-CH-zuerichdeutsch")],
  ["link to an unclosed IPv6 host", (f) => (f.provider.links = [{ uri: "http://[::1" }])],
  [
    "link mimeValue in words",
    (f) => (f.provider.links = [{ uri: "https://a.example/", mimeValue: "text html" }]),
  ],
  [
    "link mimeValue with a charset",
    (f) =>
      (f.services[1].links = [
        { uri: "https://a.example/", mimeValue: "text/html; charset=utf-8" },
      ]),
  ],
  [
    "link mimeValue as an extension",
    (f) => (f.services[0].links = [{ uri: "https://a.example/", mimeValue: "html" }]),
  ],
  ["javascript: link", (f) => (f.services[0].links = [{ uri: "javascript:alert(1)" }])],
  ["link with a bad percent", (f) => (f.services[0].links = [{ uri: "https://a.example/100%" }])],
  [
    "logo mimeValue as an extension",
    (f) =>
      (f.services[0].logos = [{ url: "https://a.example/l", size: "600x600", mimeValue: "png" }]),
  ],
  [
    "square logo in JPEG",
    (f) => (f.services[1].logos = [{ url: "https://a.example/l.jpg", size: "32x32" }]),
  ],
  [
    "stream to an unclosed IPv6 host",
    (f) => (f.services[0].streams = [{ url: "http://[::1", mimeValue: "audio/aacp", bitrate: 96 }]),
  ],
  [
    "website to an unclosed IPv6 host",
    (f) =>
      (f.services[2].shows.morning = { ...f.services[2].shows.morning, website: "http://[::1" }),
  ],
  [
    "image without a type",
    (f) =>
      (f.services[3].shows.night = {
        ...f.services[3].shows.night,
        images: [{ url: "https://a.example/i", size: "600x600" }],
      }),
  ],
  [
    "group CRID with a bad percent",
    (f) =>
      (f.services[2].shows.night = {
        ...f.services[2].shows.night,
        group: "crid://test.example/100%",
      }),
  ],
  [
    "service in another language without names in the provider's",
    (f) => {
      f.services[0].language = f.provider.language === "fr" ? "it" : "fr";
      delete f.services[0].translations;
    },
  ],
  [
    "translation into the service's own language",
    (f) => {
      f.services[1].language = f.provider.language;
      f.services[1].translations = { [String(f.provider.language)]: { keywords: ["x"] } };
    },
  ],
  [
    "translated short name over 8 characters",
    (f) => (f.services[0].translations = { fr: { name: { short: "Classique" } } }),
  ],
  [
    "translation tag with a long subtag",
    (f) => (f.provider.translations = { "fr-verylongsubtag": { keywords: ["x"] } }),
  ],
  [
    "show translated into its service's language",
    (f) =>
      (f.services[2].shows.morning = {
        ...f.services[2].shows.morning,
        translations: { [String(f.services[0].language ?? f.provider.language)]: {} },
      }),
  ],
  [
    "polygon that is not closed",
    (f) =>
      (f.services[0].geolocation = {
        polygon: [
          [47, 7],
          [47, 8],
          [46, 8],
          [46, 7],
        ],
      }),
  ],
  ["latitude over 90", (f) => (f.provider.geolocation = { point: [90.5, 7] })],
  ["UK for the United Kingdom", (f) => (f.services[1].geolocation = { country: "UK" })],
  ["empty geolocation", (f) => (f.provider.geolocation = {})],
  [
    "DAB bitrate that is no multiple of 8",
    (f) =>
      (f.services[0].bearers = {
        dab: [{ id: "dab:4e1.4fe1.4e01.0", mimeValue: "audio/aacp", bitrate: 100 }],
      }),
  ],
  [
    "telephone link with spaces",
    (f) => (f.services[1].links = [{ uri: "tel:+41 31 000 00 00", description: "Call us" }]),
  ],
  ["postal link with a comma", (f) => (f.provider.links = [{ uri: "postal:Studio,Bern" }])],
  ["mail link without a domain", (f) => (f.services[0].links = [{ uri: "mailto:studio" }])],
  [
    "episode at a time nothing starts",
    (f) => (f.services[2].episodes = [{ date: "2026-11-24", start: "23:59", name: { long: "E" } }]),
  ],
  [
    "episode of an undefined show",
    (f) =>
      (f.services[3].episodeFile = [{ date: "2026-11-24", show: "noon", name: { long: "E" } }]),
  ],
  [
    "two episodes for one airing",
    (f) =>
      (f.services[2].episodes = [
        { date: "2026-11-24", show: "morning", keywords: ["a"] },
        { date: "2026-11-24", show: "morning", keywords: ["b"] },
      ]),
  ],
  [
    "event that starts after any airing ends",
    (f) =>
      (f.services[2].shows.night = {
        ...f.services[2].shows.night,
        events: [{ name: { long: "Late" }, offset: "30:00", duration: "00:05" }],
      }),
  ],
  [
    "event repeating before it ends",
    (f) =>
      (f.services[3].shows.morning = {
        ...f.services[3].shows.morning,
        events: [{ name: { long: "E" }, offset: "00:00", duration: "00:10", every: "00:05" }],
      }),
  ],
  [
    "on-demand file type as an extension",
    (f) =>
      (f.services[2].shows.morning = {
        ...f.services[2].shows.morning,
        onDemand: { files: [{ url: "https://a.example/a.mp3", mimeValue: "mp3" }] },
      }),
  ],
  [
    "on-demand until before from",
    (f) =>
      (f.services[3].shows.night = {
        ...f.services[3].shows.night,
        onDemand: {
          files: [{ url: "https://a.example/a.mp3", mimeValue: "audio/mpeg" }],
          availableFrom: "2026-11-24T10:00Z",
          availableUntil: "2026-11-24T09:00Z",
        },
      }),
  ],
  ["service in an undefined group", (f) => (f.services[1].groups = ["news"])],
  ["service naming a group twice", (f) => (f.services[0].groups = ["music", "music"])],
  [
    "point with one coordinate",
    (f) => (f.services[0].geolocation = { country: "CH", point: [46.9] }),
  ],
  [
    "polygon of three points",
    (f) =>
      (f.provider.geolocation = {
        polygon: [
          [47, 7],
          [46, 8],
          [47, 7],
        ],
      }),
  ],
  [
    "group without a short name",
    (f) => (f.provider.serviceGroups = { music: { name: { long: "Music" } } }),
  ],
  ["IP address as radiodnsHost", (f) => (f.provider.radiodnsHost = "192.0.2.1")],
  [
    "event locator on a show, not an episode",
    (f) =>
      (f.services[2].shows.morning = {
        ...f.services[2].shows.morning,
        terrestrialEventLocator: "dvb://233a.1004.1044;1f3",
      }),
  ],
  [
    "malformed terrestrial programme CRID",
    (f) =>
      (f.services[3].shows.night = {
        ...f.services[3].shows.night,
        terrestrialProgrammeCrid: "crid://test.example/100%",
      }),
  ],
  [
    "web address as an event locator",
    (f) =>
      (f.services[2].episodes = [
        {
          date: "2026-11-23",
          show: "morning",
          terrestrialEventLocator: "https://radio.test.example/e/1",
        },
      ]),
  ],
  ["piMarginHours over 11", (f) => (f.provider.piMarginHours = 12)],
  [
    "CR, tab and new line in names",
    (f) => (f.provider.name = { ...f.provider.name, long: "A\r\nB\tC\rD" }),
  ],
];

const dataFolder = fc
  .record({
    provider,
    services: fc.tuple(service("one"), service("two"), schedule, schedule),
    nearMiss: fc.option(fc.constantFrom(...nearMisses), { freq: 2 }),
  })
  .map(({ provider, services, nearMiss }) => {
    const folder = structuredClone({ provider, services }) as unknown as Folder;
    for (const service of [folder.services[0], folder.services[1]]) {
      const names = service.namesInProviderLanguage;
      delete service.namesInProviderLanguage;
      if (names && service.language !== undefined && service.language !== provider.language) {
        const translations = (service.translations ?? {}) as Record<string, unknown>;
        service.translations = { ...translations, [provider.language]: { name: names } };
      }
    }
    nearMiss?.[1](folder);
    return folder;
  });

const root = await mkdtemp(join(tmpdir(), "spi-static-accepted-"));
afterAll(() => rm(root, { recursive: true, force: true }));

/** The YAML files of one generated data folder, by path: what a failure shows. */
type DataFiles = Record<string, string>;

describe("every data folder validate accepts", () => {
  it("builds into documents that all validate against spi_31.xsd", async () => {
    // One xmllint run costs over a second on a loaded machine, so the documents of every
    // accepted folder are collected and validated together; a violation names its folder.
    const acceptedFolders: { files: DataFiles; documents: SpiDocument[] }[] = [];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(dataFolder, async ({ provider, services: [one, two, s1, s2] }) => {
        const dir = join(root, String(run++));
        const { episodeFile: e1, ...schedule1 } = s1;
        const { episodeFile: e2, ...schedule2 } = s2;
        const files: DataFiles = {
          "provider.yaml": stringify(provider),
          "services/one.yaml": stringify(one),
          "services/two.yaml": stringify(two),
          "schedules/one.yaml": stringify(schedule1),
          "schedules/two.yaml": stringify(schedule2),
          "logos/square.svg": SQUARE_SVG,
          "logos/wide.svg": WIDE_SVG,
          ...(Array.isArray(e1) && e1.length > 0
            ? { "episodes/one/week.yaml": stringify({ episodes: e1 }) }
            : {}),
          ...(Array.isArray(e2) && e2.length > 0
            ? { "episodes/two/week.yaml": stringify({ episodes: e2 }) }
            : {}),
        };
        for (const folder of ["services", "schedules", "logos", "episodes/one", "episodes/two"]) {
          await mkdir(join(dir, folder), { recursive: true });
        }
        for (const [path, text] of Object.entries(files)) await writeFile(join(dir, path), text);
        const { scheduled, problems } = await loadAndSchedule(dir, NOW);
        await rm(dir, { recursive: true });
        if (!scheduled || problems.some((p) => p.severity === "error")) return;
        const folder = acceptedFolders.length;
        const documents = [...renderSite(scheduled, NOW)]
          .filter((document) => document.path.endsWith(".xml"))
          .map((document) => ({
            name: `${folder}:${document.path}`,
            xml: document.content.toString("utf8"),
          }));
        // Both SI documents and a PI document per service and day.
        expect(documents).toHaveLength(2 + 2 * 17);
        acceptedFolders.push({ files, documents });
      }),
      { numRuns: RUNS },
    );
    // Reported, so a generator that drifts towards refusal shows long before the floor fails.
    console.log(`accepted ${acceptedFolders.length} of ${RUNS} generated data folders`);
    expect(acceptedFolders.length).toBeGreaterThan(RUNS / 10);

    const violations = await validateSpiDocuments(
      acceptedFolders.flatMap((folder) => folder.documents),
    );
    const first = violations[0];
    if (first) {
      const folder = acceptedFolders[Number(first.document.split(":")[0])];
      const document = folder?.documents.find((d) => d.name === first.document);
      expect.fail(
        `${violations.length} schema violations; the first, in ${first.document} line ${first.line}: ${first.message}\n` +
          `${document?.xml}\nfrom the data folder:\n${Object.entries(folder?.files ?? {})
            .map(([path, text]) => `--- ${path}\n${text}`)
            .join("")}`,
      );
    }
    // 120 folders loaded, scheduled and rendered: 57 s in a contended CI run, near the 60 s default.
  }, 240_000);
});
