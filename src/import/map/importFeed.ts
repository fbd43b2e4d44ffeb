import { UsageError } from "../../exit/spiStaticError.js";
import { radiodnsHostProblem } from "../../load/formats/radiodnsHost.js";
import { SERVICE_ID_PATTERN } from "../../load/formats/spiFormat.js";
import { defaultShortIdSlot } from "../../load/model/shortIdSlot.js";
import type { EpisodeInput } from "../../load/schema/episodesSchema.js";
import type { ProviderInput } from "../../load/schema/providerSchema.js";
import type { ScheduleInput } from "../../load/schema/scheduleSchema.js";
import type { ServiceInput, ServiceRadiodnsInput } from "../../load/schema/serviceSchema.js";
import { programmeShortId } from "../../schedule/programmeShortId.js";
import { radiodnsKey } from "../../site/siteContract.js";
import type { PlainDate } from "../../time/plainDate.js";
import { localDateOf } from "../../time/wallClock.js";
import type { ImportNote } from "../importNote.js";
import type {
  Feed,
  FeedProgramme,
  FeedService,
  LocatedProgrammeInformation,
} from "../read/feedModel.js";
import {
  FM_COUNTRY_FORM,
  importProvider,
  importService,
  importServiceGroups,
  serviceIdsOf,
} from "./importServiceInformation.js";
import { importShows } from "./importShows.js";
import { inferSchedule } from "./inferSchedule.js";
import { localDateAndClock } from "./localTime.js";
import { feedShortIdSlot, pinShortIdSlots } from "./shortIdSlots.js";

/** A data folder's content: what provider.yaml, services/ and schedules/ will hold. */
export interface ImportedData {
  provider: ProviderInput;
  services: { service: ServiceInput; schedule: ScheduleInput; episodes: EpisodeInput[] }[];
}

export interface ImportOptions {
  /** The IANA zone the schedules' wall times are in (SPI documents carry instants only). */
  timeZone: string;
  /** Service id → its zone, where it is not `timeZone`. */
  serviceTimeZones: Record<string, string>;
  /** Where the feed came from: the origin of notes about the whole feed. */
  source: string;
}

/**
 * A feed (SI and PI documents) as a data folder, and a note for everything the folder cannot
 * say. Pure: the documents were read before, the files are written after.
 */
export function importFeed(feed: Feed, options: ImportOptions, notes: ImportNote[]): ImportedData {
  const si = feed.serviceInformation;
  const ids = serviceIdsOf(si.services, notes);
  const allProgrammes = feed.programmeInformation.flatMap((pi) => pi.document.programmes);
  const host = feedRadiodnsHost(feed, notes);
  const radiodnsOf = serviceRadiodns(si.services, ids, host, notes);
  const cridAuthority = mostCommon(
    allProgrammes.flatMap((p) => {
      const authority = /^crid:\/\/([^/]+)\//i.exec(p.crid)?.[1]?.toLowerCase();
      return authority !== undefined && /^[a-z0-9.-]+$/.test(authority) ? [authority] : [];
    }),
    host,
  );
  const provider = importProvider(
    si.provider,
    si.language,
    {
      timeZone: options.timeZone,
      radiodnsHost: host,
      cridAuthority,
      originator:
        si.originator ??
        feed.programmeInformation.find((pi) => pi.document.originator)?.document.originator,
    },
    si.source,
    notes,
  );

  const groups = importServiceGroups(si.serviceGroups, si.language, notes);
  if (groups.ids.size > 0) provider.serviceGroups = groups.serviceGroups;

  const fmCountry = feedFmCountry(si.services, si.source, notes);
  if (fmCountry !== undefined) provider.discovery = { ...provider.discovery, fmCountry };

  const unknown = Object.keys(options.serviceTimeZones).filter((id) => !ids.includes(id));
  if (unknown.length > 0) {
    throw new UsageError(
      `--service-time-zone names ${unknown.join(", ")}: the feed's services are ${ids.join(", ")}`,
    );
  }
  const documentsOf = assignToServices(feed, ids, notes);
  const claimedBearers = new Set<string>();
  const services = si.services.map((feedService, index) => {
    const id = ids[index] ?? "";
    const documents = documentsOf.get(index) ?? [];
    // The service's own language is its PI documents': the SI lists it in the provider's first.
    const language = mostCommon(
      documents.map((pi) => pi.document.language),
      feedService.language,
    );
    const timeZone = options.serviceTimeZones[id] ?? options.timeZone;
    const radiodns = radiodnsOf[index];
    const service = {
      ...importService(
        feedService,
        id,
        language,
        si.language,
        claimedBearers,
        notes,
        radiodns,
        groups.ids,
      ),
      ...(timeZone !== options.timeZone ? { timeZone } : {}),
      ...shortIdPolicy(documents, id, notes),
    };
    const { schedule, episodes } = importSchedule(feedService, id, documents, {
      cridAuthority,
      timeZone,
      language,
      notes,
    });
    return { service, schedule, episodes };
  });
  pinShortIdSlots(
    services.map((s) => s.service),
    host,
    notes,
  );
  if (fmCountry !== undefined) noteForeignFm(si.services, services, fmCountry, notes);
  setOwnSiteHost(provider, services, host, si.source, notes);
  return { provider, services };
}

/**
 * discovery.host, when every logo is one spi-static made (a round trip of our own site): the
 * host they are served from, where it is not the radiodnsHost.
 */
function setOwnSiteHost(
  provider: ProviderInput,
  services: ImportedData["services"],
  host: string,
  source: string,
  notes: ImportNote[],
): void {
  const siteHost = ownSiteHost([
    provider,
    ...Object.values(provider.serviceGroups ?? {}),
    ...services.map((s) => s.service),
  ]);
  if (siteHost !== undefined && siteHost.host !== host) {
    provider.discovery = {
      ...provider.discovery,
      host: siteHost.host,
      ...(siteHost.port !== undefined ? { httpsPort: siteHost.port } : {}),
    };
    notes.push({
      origin: source,
      message: `the logos are spi-static's own, served from ${siteHost.host}${siteHost.port !== undefined ? `:${siteHost.port}` : ""}: discovery.host (where the site is served) is set to it`,
    });
  }
}

/** The FQDN most radiodns elements and PI documents name; else a stand-in, noted. */
function feedRadiodnsHost(feed: Feed, notes: ImportNote[]): string {
  const si = feed.serviceInformation;
  const radiodnsHost = mostCommon(
    [
      ...si.services.flatMap((s) => (s.radiodns ? [s.radiodns.fqdn.toLowerCase()] : [])),
      ...feed.programmeInformation.flatMap((pi) =>
        pi.serviceKey?.kind === "id" ? [pi.serviceKey.fqdn] : [],
      ),
    ],
    undefined,
  );
  if (radiodnsHost === undefined) {
    notes.push({
      origin: si.source,
      message: "no service has a radiodns element: radiodnsHost is rdns.example.org; set yours",
    });
  }
  return radiodnsHost ?? "rdns.example.org";
}

/**
 * The provider's fmCountry: the one country RadioDNS 1.0's country-form FM ids name. Several
 * are noted, and give none.
 */
function feedFmCountry(
  services: readonly FeedService[],
  source: string,
  notes: ImportNote[],
): string | undefined {
  const fmCountries = new Set(
    services.flatMap((s) =>
      s.bearers.flatMap((b) => FM_COUNTRY_FORM.exec(b.id.toLowerCase())?.[1] ?? []),
    ),
  );
  if (fmCountries.size > 1) {
    notes.push({
      origin: source,
      message: `the FM ids name several countries (${[...fmCountries].join(", ")}): discovery.fmCountry is not set`,
    });
  }
  return fmCountries.size === 1 ? [...fmCountries][0] : undefined;
}

/** A logo spi-static made: `https://<discovery host>/logos/<owner>/<size>-<16 hex>.png`. */
const MADE_LOGO =
  /^https:\/\/([a-z0-9.-]+)(?::(\d+))?\/logos\/[^?#]+\/\d+x\d+-[0-9a-f]{16}\.(?:png|jpg)$/i;

/**
 * Where a site spi-static built is served, from its logos: they are published under its
 * discovery host, which appears nowhere else in its documents. Only when every logo is one
 * spi-static made, all on one host.
 */
function ownSiteHost(
  owners: readonly { logos?: readonly { url: string }[] | undefined }[],
): { host: string; port: number | undefined } | undefined {
  const origins = new Set<string>();
  for (const owner of owners) {
    for (const { url } of owner.logos ?? []) {
      const made = MADE_LOGO.exec(url);
      if (!made) return undefined;
      origins.add(`${made[1]?.toLowerCase()} ${made[2] ?? ""}`);
    }
  }
  const [origin, ...others] = origins;
  if (origin === undefined || others.length > 0) return undefined;
  const [host = "", port = ""] = origin.split(" ");
  return { host, port: port === "" || port === "443" ? undefined : Number(port) };
}

/**
 * discovery.fmCountry applies to every FM bearer of the provider: a station whose FM GCC is not
 * the one the country-form ids pair with is most likely abroad, and dns would look it up under
 * the provider's country. Said, not changed: only the broadcaster knows the station's country.
 */
function noteForeignFm(
  feedServices: readonly FeedService[],
  imported: readonly { service: ServiceInput }[],
  fmCountry: string,
  notes: ImportNote[],
) {
  const gccOf = (id: string) => /^fm:([0-9a-f]{3})\./.exec(id)?.[1];
  const ids = feedServices.flatMap((s) => s.bearers.map((b) => b.id.toLowerCase()));
  const countryGccs = new Set(
    ids.flatMap((id) => {
      const [, , pi, frequency] = FM_COUNTRY_FORM.exec(id) ?? [];
      const twin = ids.find((other) => other.endsWith(`.${pi}.${frequency}`) && gccOf(other));
      return twin === undefined ? [] : [gccOf(twin) ?? ""];
    }),
  );
  imported.forEach(({ service }, index) => {
    const foreign = [
      ...new Set((service.bearers?.fm ?? []).flatMap((b) => gccOf(b.id) ?? [])),
    ].filter((gcc) => !countryGccs.has(gcc));
    if (foreign.length === 0) return;
    notes.push({
      origin: feedServices[index]?.origin ?? service.id,
      message: `service ${service.id} has FM bearers of GCC ${foreign.join(", ")}, not ${fmCountry}'s (${[...countryGccs].join(", ")}): discovery.fmCountry (${fmCountry}) applies to them too; if the station is abroad, give services/${service.id}.yaml its own fmCountry`,
    });
  });
}

/**
 * Each service's own `radiodns` for its file: its FQDN where it is not the provider's host, its
 * serviceIdentifier where that is not its id (another service under another FQDN has the same
 * one), so its PI URLs and its bearers' CNAMEs stay as the feed has them. What cannot be kept is
 * noted: an FQDN that is no host name, a serviceIdentifier that is another's under the same FQDN.
 */
function serviceRadiodns(
  services: readonly FeedService[],
  ids: readonly string[],
  host: string,
  notes: ImportNote[],
): (ServiceRadiodnsInput | undefined)[] {
  const claimed = new Set<string>();
  return services.map((service, index) => {
    const id = ids[index] ?? "";
    const own = service.radiodns;
    let fqdn = host;
    const ownFqdn = own?.fqdn.toLowerCase();
    if (ownFqdn !== undefined && ownFqdn !== host) {
      const problem = radiodnsHostProblem(ownFqdn, "a RadioDNS fqdn");
      if (problem === undefined) fqdn = ownFqdn;
      else {
        notes.push({
          origin: service.origin,
          message: `RadioDNS fqdn ${own?.fqdn} is not kept (${problem}): this service's PI moves to id/${host}/…`,
        });
      }
    }
    const ownIdentifier = own?.serviceIdentifier.toLowerCase();
    let serviceIdentifier =
      ownIdentifier !== undefined && SERVICE_ID_PATTERN.test(ownIdentifier) ? ownIdentifier : id;
    if (serviceIdentifier !== id && claimed.has(radiodnsKey({ fqdn, serviceIdentifier }))) {
      notes.push({
        origin: service.origin,
        message: `serviceIdentifier "${own?.serviceIdentifier}" cannot be this service's id: an earlier service of the SI has it too, under ${fqdn}; the id is made from its name instead, and its PI URLs change`,
      });
      serviceIdentifier = id;
    }
    claimed.add(radiodnsKey({ fqdn, serviceIdentifier }));
    const radiodns = {
      ...(fqdn !== host ? { fqdn } : {}),
      ...(serviceIdentifier !== id ? { serviceIdentifier } : {}),
    };
    return Object.keys(radiodns).length > 0 ? radiodns : undefined;
  });
}

/** Which service each PI document belongs to, by its path; documents of no service are noted. */
function assignToServices(
  feed: Feed,
  ids: readonly string[],
  notes: ImportNote[],
): Map<number, LocatedProgrammeInformation[]> {
  const services = feed.serviceInformation.services;
  const byService = new Map<number, LocatedProgrammeInformation[]>();
  const withBearer = (id: string) =>
    services.findIndex((s) => s.bearers.some((b) => b.id.toLowerCase() === id.toLowerCase()));
  for (const pi of feed.programmeInformation) {
    let index = -1;
    const key = pi.serviceKey;
    if (key?.kind === "id") {
      // Services under different FQDNs may share a serviceIdentifier: the FQDN decides then.
      const same = (a: string | undefined, b: string) => a?.toLowerCase() === b.toLowerCase();
      index = services.findIndex(
        (s) =>
          same(s.radiodns?.fqdn, key.fqdn) &&
          same(s.radiodns?.serviceIdentifier, key.serviceIdentifier),
      );
      if (index === -1) {
        index = services.findIndex((s) => s.radiodns?.serviceIdentifier === key.serviceIdentifier);
      }
      if (index === -1) index = ids.indexOf(key.serviceIdentifier);
    } else if (key?.kind === "bearer") {
      index = withBearer(key.bearerId);
    }
    // The schedule's scope names its service by bearer (EPG 1.x feeds rely on it).
    const scopes = pi.document.serviceScopes;
    const scoped = new Set(scopes.map(withBearer).filter((i) => i !== -1));
    if (index === -1 && scoped.size === 1) index = [...scoped][0] ?? -1;
    if (index === -1 && !key && services.length === 1) {
      index = 0;
      if (scopes.length > 0) {
        notes.push({
          origin: pi.document.source,
          message: `its serviceScope ${scopes.join(", ")} is no bearer of the SI's service: imported as the only service's`,
        });
      }
    }
    if (index === -1) {
      const scope = scopes.length > 0 ? `serviceScope ${scopes.join(", ")}` : undefined;
      notes.push({
        origin: pi.document.source,
        message: scope
          ? `its ${scope} ${scoped.size > 1 ? "names several services" : "is no bearer of the SI's services"}${key ? ", nor is its path any service's" : ""}: not imported`
          : key
            ? "no service of the SI document has this PI document's path, and it has no serviceScope: not imported"
            : "the path does not say which service this PI document is for (…/id/<fqdn>/<serviceId>/<date>_PI.xml), it has no serviceScope, and the SI has several services: not imported",
      });
      continue;
    }
    byService.set(index, [...(byService.get(index) ?? []), pi]);
  }
  return byService;
}

interface ScheduleContext {
  cridAuthority: string;
  timeZone: string;
  language: string;
  notes: ImportNote[];
}

function importSchedule(
  feedService: FeedService,
  serviceId: string,
  documents: readonly LocatedProgrammeInformation[],
  context: ScheduleContext,
): { schedule: ScheduleInput; episodes: EpisodeInput[] } {
  const { notes, timeZone } = context;
  const airings = uniqueAirings(documents, notes);
  const coveredDays = new Set<PlainDate>();
  for (const pi of documents) {
    const day = pi.day ?? dayOfMostStarts(pi.document.programmes, timeZone);
    if (day !== undefined) coveredDays.add(day);
  }
  if (airings.length === 0) {
    notes.push({
      origin: feedService.origin,
      message: `service ${serviceId} has no programmes in the feed: its grid is empty`,
    });
  }
  const { shows, showIds, episodes } = importShows(
    airings,
    {
      serviceId,
      cridAuthority: context.cridAuthority,
      language: context.language,
    },
    notes,
  );
  const schedule = inferSchedule(
    airings.map((airing, i) => ({
      start: airing.start,
      end: airing.end,
      showId: showIds[i] ?? "",
      origin: airing.origin,
    })),
    coveredDays,
    timeZone,
    notes,
  );
  return {
    schedule: { shows, ...schedule },
    episodes: airings.flatMap((airing, i): EpisodeInput[] => {
      const content = episodes[i];
      if (!content) return [];
      const { date, clock } = localDateAndClock(timeZone, airing.start);
      return [{ date, start: clock, ...content }];
    }),
  };
}

/**
 * Each airing once, in order of start: neighbouring days' documents repeat the programmes near
 * midnight. Two different programmes at one instant cannot both be on air: the first is kept.
 */
function uniqueAirings(
  documents: readonly LocatedProgrammeInformation[],
  notes: ImportNote[],
): FeedProgramme[] {
  const byStart = new Map<number, FeedProgramme>();
  for (const pi of documents) {
    for (const programme of pi.document.programmes) {
      const seen = byStart.get(programme.start);
      if (!seen) {
        byStart.set(programme.start, programme);
      } else if (seen.crid !== programme.crid || seen.end !== programme.end) {
        notes.push({
          origin: programme.origin,
          message: `another programme (${seen.crid}, ${seen.origin}) starts at the same time: this one is not imported`,
        });
      }
    }
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

/** The local day most of a document's programmes start on: the day a PI document is for. */
function dayOfMostStarts(
  programmes: readonly FeedProgramme[],
  zone: string,
): PlainDate | undefined {
  return mostCommon(
    programmes.map((p) => localDateOf(zone, p.start)),
    undefined,
  );
}

function mostCommon<T extends string | undefined>(
  values: readonly string[],
  fallback: T,
): string | T {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | T = fallback;
  let bestCount = 0;
  for (const [value, count] of counts) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

/**
 * `shortIds: unique` for a service whose programmes carry shortIds: the build's own when they
 * are its formula (from each start, in the slot they show, written when not the id's own), else
 * with a note that the feed's are not kept.
 */
function shortIdPolicy(
  documents: readonly LocatedProgrammeInformation[],
  serviceId: string,
  notes: ImportNote[],
): Pick<ServiceInput, "shortIds" | "shortIdSlot"> {
  const programmes = documents.flatMap((pi) => pi.document.programmes);
  const numbered = programmes.filter((p) => p.shortId !== undefined && p.shortId !== 0);
  const [first] = numbered;
  if (!first) return {};
  const slot = feedShortIdSlot(numbered);
  if (slot !== undefined) {
    return {
      shortIds: "unique",
      ...(slot !== defaultShortIdSlot(serviceId) ? { shortIdSlot: slot } : {}),
    };
  }
  const foreign = numbered.filter(
    (p) => p.shortId !== programmeShortId(defaultShortIdSlot(serviceId), p.start),
  );
  notes.push({
    origin: foreign[0]?.origin ?? first.origin,
    message: `the feed's programme shortIds are not kept (${foreign.length} differ): with shortIds: unique the build gives each programme one from its start`,
  });
  return { shortIds: "unique" };
}
