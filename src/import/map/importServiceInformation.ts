import { imageMimeType, mediaTypeProblem } from "../../load/formats/mediaType.js";
import { gccProblem, parseBroadcastBearer } from "../../load/formats/radiodnsBearer.js";
import { NAME_LENGTHS, SERVICE_ID_PATTERN } from "../../load/formats/spiFormat.js";
import type { GeolocationInput, LogoInput } from "../../load/schema/fields.js";
import type { ProviderInput, ServiceGroupInput } from "../../load/schema/providerSchema.js";
import type { ServiceInput, ServiceRadiodnsInput } from "../../load/schema/serviceSchema.js";
import type { ImportNote } from "../importNote.js";
import type {
  FeedBearer,
  FeedDescribed,
  FeedGenre,
  FeedGeolocation,
  FeedImage,
  FeedService,
  FeedServiceGroup,
} from "../read/feedModel.js";
import { importLinks, importTexts, withinLimit } from "./feedTexts.js";
import { importGenre } from "./importProgrammeMedia.js";

/** The provider and the services of an SI document, as provider.yaml and services/*.yaml. */

/** What the provider file needs that an SI document does not say. */
export interface ProviderSettings {
  timeZone: string;
  radiodnsHost: string;
  cridAuthority: string;
  /** When the SI has no originator. */
  originator: string | undefined;
}

export function importProvider(
  provider: FeedDescribed | undefined,
  language: string,
  settings: ProviderSettings,
  origin: string,
  notes: ImportNote[],
): ProviderInput {
  const texts = provider ? importTexts(provider, language, provider.origin, notes) : undefined;
  const names = texts?.name;
  const fallback = settings.originator ?? settings.radiodnsHost;
  if (!names) {
    notes.push({
      origin,
      message: `no serviceProvider with a name: the provider is named "${fallback}"; edit provider.yaml`,
    });
  }
  const long = names?.long ?? fallback;
  const short =
    names?.short ?? shortNameFrom(names?.medium ?? long, provider?.origin ?? origin, notes);
  const description = texts?.description;
  const logos = provider ? importLogos(provider.images, notes) : [];
  const links = importLinks(texts?.links ?? [], notes);
  const keywords = texts?.keywords ?? [];
  const translations = texts?.translations ?? {};
  return {
    name: { short, ...(names?.medium ? { medium: names.medium } : {}), long },
    ...(description ? { description } : {}),
    originator:
      withinLimit(settings.originator ?? long, NAME_LENGTHS.long, "originator", origin, notes) ??
      long,
    language,
    timeZone: settings.timeZone,
    radiodnsHost: settings.radiodnsHost,
    cridAuthority: settings.cridAuthority,
    ...(logos.length > 0 ? { logos } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
    ...geolocationOf(provider?.geolocation, notes),
  };
}

/**
 * A service file without its schedule; `id` is the RadioDNS serviceIdentifier if it has one,
 * `radiodns` what the file must say for its PI URLs to stay (importFeed.ts serviceRadiodns).
 */
export function importService(
  service: FeedService,
  id: string,
  language: string,
  providerLanguage: string,
  claimed: Set<string>,
  notes: ImportNote[],
  radiodns?: ServiceRadiodnsInput,
  groupIds: ReadonlyMap<string, string> = new Map(),
): ServiceInput {
  const { origin } = service;
  const groups = [...new Set(service.groups)].flatMap((member) => {
    const group = groupIds.get(member);
    if (group === undefined) {
      notes.push({
        origin,
        message: `serviceGroupMember "${member}" names no serviceGroup of the SI: not imported`,
      });
    }
    return group ?? [];
  });
  const { name, description, logos, genres, keywords, links, translations } = importDescribed(
    service,
    id,
    language,
    notes,
  );
  const { streams, ...bearers } = importBearers(service.bearers, claimed, notes);
  const broadcast = Object.fromEntries(
    Object.entries(bearers).filter(([, list]) => list.length > 0),
  ) as Bearers;
  return {
    id,
    ...(radiodns ? { radiodns } : {}),
    name,
    ...(description ? { description } : {}),
    ...(language !== providerLanguage ? { language } : {}),
    ...(logos.length > 0 ? { logos } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(groups.length > 0 ? { groups } : {}),
    ...(Object.keys(broadcast).length > 0 ? { bearers: broadcast } : {}),
    ...(streams.length > 0 ? { streams } : {}),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
    ...geolocationOf(service.geolocation, notes),
  };
}

/** The provider's serviceGroups, by the ids the data gives them, and the SI's id of each. */
export interface ImportedGroups {
  serviceGroups: Record<string, ServiceGroupInput>;
  /** The SI's serviceGroup id → the data's. */
  ids: Map<string, string>;
}

/**
 * The SI's serviceGroups as provider.yaml's `serviceGroups`. A group's id in the data is a
 * lower-case identifier (`[a-z][a-z0-9-]*`, up to 64): another SI id is made into one, noted
 * (only SI's own `serviceGroupMember` refers to it, so nothing a receiver keeps changes). A
 * second group with the same id is noted and left out, as its members' reference is ambiguous.
 */
export function importServiceGroups(
  groups: readonly FeedServiceGroup[],
  language: string,
  notes: ImportNote[],
): ImportedGroups {
  const serviceGroups: Record<string, ServiceGroupInput> = {};
  const ids = new Map<string, string>();
  for (const group of groups) {
    const { origin } = group;
    if (ids.has(group.id)) {
      notes.push({
        origin,
        message: `serviceGroup "${group.id}" is defined twice: the second is not imported`,
      });
      continue;
    }
    const id = groupIdOf(group.id, new Set(ids.values()));
    if (id !== group.id) {
      notes.push({
        origin,
        message: `serviceGroup id "${group.id}" is imported as "${id}": group ids are lower-case letters, digits and hyphens`,
      });
    }
    ids.set(group.id, id);
    const { name, description, logos, genres, keywords, links, translations } = importDescribed(
      group,
      id,
      language,
      notes,
    );
    serviceGroups[id] = {
      name,
      ...(description ? { description } : {}),
      ...(logos.length > 0 ? { logos } : {}),
      ...(genres.length > 0 ? { genres } : {}),
      ...(keywords.length > 0 ? { keywords } : {}),
      ...(links.length > 0 ? { links } : {}),
      ...(Object.keys(translations).length > 0 ? { translations } : {}),
      ...geolocationOf(group.geolocation, notes),
    };
  }
  return { serviceGroups, ids };
}

/**
 * What a service and a service group say alike, as the data holds it, in the order its notes
 * come: names (a short name made when there is none; `id` when there is no name), texts, logos,
 * genres, links.
 */
function importDescribed(
  described: FeedDescribed & { genres: readonly FeedGenre[] },
  id: string,
  language: string,
  notes: ImportNote[],
) {
  const { origin } = described;
  const texts = importTexts(described, language, origin, notes);
  const names = texts.name ?? { long: id };
  const short = names.short ?? shortNameFrom(names.medium ?? names.long, origin, notes);
  const logos = importLogos(described.images, notes);
  const genres = described.genres.flatMap((genre) => importGenre(genre, language, origin, notes));
  return {
    name: { ...names, short },
    description: texts.description,
    logos,
    genres,
    keywords: texts.keywords,
    links: importLinks(texts.links, notes),
    translations: texts.translations,
  };
}

function groupIdOf(feedId: string, taken: ReadonlySet<string>): string {
  const base =
    feedId
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, "-")
      .replace(/^[^a-z]+|-+$/g, "")
      .slice(0, 60) || "group";
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

type Bearers = NonNullable<ServiceInput["bearers"]>;
/** RadioDNS 1.0's FM form: the ISO 3166 country instead of the GCC (`fm:ch.4f15.09210`). */
export const FM_COUNTRY_FORM = /^fm:([a-z]{2})\.([0-9a-f]{4})\.(\d{5})$/;

type ImportedBearers = Required<Bearers> & { streams: NonNullable<ServiceInput["streams"]> };
type Note = (message: string) => void;

/**
 * A service's bearers as the data holds them. Each one the data (and so `validate`) would
 * refuse is noted where it is and left out: an id of no bearer kind spi-static publishes, a
 * GCC that disagrees with the SId or PI code, a bearer an earlier service claims (`claimed`,
 * across the SI), a RadioDNS 1.0 country-form FM id (its GCC twin, when listed, is kept).
 */
function importBearers(
  bearers: readonly FeedBearer[],
  claimed: Set<string>,
  notes: ImportNote[],
): ImportedBearers {
  const imported: ImportedBearers = { dab: [], fm: [], hd: [], drm: [], amss: [], streams: [] };
  const ids = bearers.map((b) => b.id.toLowerCase());
  for (const bearer of bearers) {
    const id = bearer.id.toLowerCase();
    const note = (message: string) => notes.push({ origin: bearer.origin, message });
    if (/^(dab|fm|hd|drm|amss):/.test(id)) {
      if (isCountryForm(bearer, ids, note)) continue;
      const parsed = parseBroadcastBearer(id);
      const problem = parsed
        ? gccProblem(parsed)
        : `it is not a ${id.slice(0, id.indexOf(":")).toUpperCase()} bearer id spi-static publishes`;
      if (problem !== undefined) note(`bearer ${bearer.id} is not imported: ${problem}`);
      else if (claimed.has(id)) {
        note(`bearer ${bearer.id} is not imported: an earlier service of the SI has it`);
      } else if (parsed && importBroadcastBearer(bearer, parsed.system, imported, note)) {
        claimed.add(id);
      }
    } else if (/^https?:\/\//i.test(bearer.id)) {
      const mimeValue = bearer.mimeValue?.trim();
      const typeProblem = mimeValue === undefined ? "it has none" : mediaTypeProblem(mimeValue);
      if (mimeValue === undefined || typeProblem !== undefined) {
        note(`stream ${bearer.id} is not imported: a stream needs a mimeValue, and ${typeProblem}`);
        continue;
      }
      imported.streams.push({
        url: bearer.id,
        mimeValue,
        ...(bearer.bitrate !== undefined ? { bitrate: bearer.bitrate } : {}),
        ...cost(bearer.cost, 100),
        ...offsetOf(bearer),
      });
    } else {
      note(
        `bearer ${bearer.id} is not imported: spi-static publishes DAB, FM, HD Radio, DRM, AMSS and http(s) streams`,
      );
    }
  }
  return imported;
}

/** A RadioDNS 1.0 country-form FM id, noted as left out (for its GCC twin, when listed). */
function isCountryForm(bearer: FeedBearer, ids: readonly string[], note: Note): boolean {
  const country = FM_COUNTRY_FORM.exec(bearer.id.toLowerCase());
  if (!country) return false;
  const [, , pi, frequency] = country;
  const twin = ids.find((other) =>
    new RegExp(`^fm:[0-9a-f]{3}\\.${pi}\\.${frequency}$`).test(other),
  );
  note(
    twin
      ? `${bearer.id} is RadioDNS 1.0's country form of ${twin}: ${twin} is imported, and discovery.fmCountry in provider.yaml makes dns publish the country form's lookup name`
      : `${bearer.id} (RadioDNS 1.0's country form) is not imported: the SI has no GCC form of it (fm:<gcc>.${pi}.${frequency}); add it with the GCC of the station's country`,
  );
  return true;
}

/** Adds a broadcast bearer whose id is good to its system's list; false when it is left out. */
function importBroadcastBearer(
  bearer: FeedBearer,
  system: "dab" | "fm" | "hd" | "drm" | "amss",
  imported: ImportedBearers,
  note: Note,
): boolean {
  const id = bearer.id.toLowerCase();
  const offset = offsetOf(bearer);
  if (system === "fm") {
    imported.fm.push({ id, ...cost(bearer.cost, 50), ...offset });
    return true;
  }
  if (system === "dab") {
    const mimeValue = bearer.mimeValue === "audio/mpeg" ? "audio/mpeg" : "audio/aacp";
    if (bearer.mimeValue !== mimeValue) {
      note(
        `DAB bearer ${bearer.id} with mimeValue ${bearer.mimeValue ?? "(none)"}: imported as audio/aacp`,
      );
    }
    const { bitrate } = bearer;
    const dabRate = bitrate !== undefined && bitrate >= 8 && bitrate <= 384 && bitrate % 8 === 0;
    if (bitrate !== undefined && !dabRate) {
      note(
        `DAB bitrate ${bitrate} is not imported: a DAB sub-channel runs at 8 to 384 kbit/s in steps of 8`,
      );
    }
    imported.dab.push({
      id,
      mimeValue,
      ...(dabRate ? { bitrate } : {}),
      ...cost(bearer.cost, 20),
      ...offset,
    });
    return true;
  }
  // No default cost for these: the feed's, else the FM default, noted.
  if (bearer.cost === undefined) {
    note(
      `bearer ${bearer.id} has no cost (TS 102 818 table 10 requires one): imported with cost 50`,
    );
  }
  const given = { id, cost: bearer.cost ?? 50, ...offset };
  if (system !== "drm") {
    imported[system].push(given);
    return true;
  }
  const mimeValue = bearer.mimeValue?.trim();
  if (!mimeValue || mediaTypeProblem(mimeValue) !== undefined) {
    note(
      `DRM bearer ${bearer.id} is not imported: it needs the audio's mimeValue (TS 102 818 §5.11.3)`,
    );
    return false;
  }
  imported.drm.push({ ...given, mimeValue });
  return true;
}

function offsetOf(bearer: FeedBearer): { offset?: number } {
  return bearer.offset !== undefined ? { offset: bearer.offset } : {};
}

/**
 * The service ids: each service's RadioDNS serviceIdentifier (its PI URLs stay the same), else
 * one made from its name. Services with a usable identifier claim it first, so a made-up id
 * never takes the one a later service has; an identifier that cannot be used is noted, with why.
 */
export function serviceIdsOf(services: readonly FeedService[], notes: ImportNote[]): string[] {
  const ids: (string | undefined)[] = services.map(() => undefined);
  const taken = new Set<string>();
  services.forEach((service, index) => {
    const own = service.radiodns?.serviceIdentifier;
    if (own === undefined) return;
    const lower = own.toLowerCase();
    // One an earlier service has is kept under this service's own FQDN when it has one, or
    // noted (importFeed.ts serviceRadiodns).
    if (taken.has(lower)) return;
    const why = !SERVICE_ID_PATTERN.test(lower)
      ? "it is not 1 to 16 letters and digits (TS 102 818 V3.5.1 §6.6)"
      : undefined;
    if (why === undefined) {
      ids[index] = lower;
      taken.add(lower);
      if (lower !== own) {
        notes.push({
          origin: service.origin,
          message: `serviceIdentifier "${own}" is imported as "${lower}": RadioDNS identifiers are lower case`,
        });
      }
      return;
    }
    notes.push({
      origin: service.origin,
      message: `serviceIdentifier "${own}" cannot be this service's id: ${why}; the id is made from its name instead, and its PI URLs change`,
    });
  });
  return services.map((service, index) => {
    const own = ids[index];
    if (own !== undefined) return own;
    const name = [...service.names.short, ...service.names.medium, ...service.names.long][0];
    const base =
      (name?.text ?? "service")
        .normalize("NFKD")
        .toLowerCase()
        .replace(/[^a-z0-9]/g, "")
        .slice(0, 14) || "service";
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 14)}${n}`;
    taken.add(id);
    return id;
  });
}

function cost(value: number | undefined, byDefault: number): { cost?: number } {
  return value !== undefined && value !== byDefault ? { cost: value } : {};
}

/** A shortName is required: made from the medium or long name, and noted. */
function shortNameFrom(text: string, origin: string, notes: ImportNote[]): string {
  notes.push({
    origin,
    message: "no shortName: one is made from the first 8 characters of the name",
  });
  return Array.from(text).slice(0, NAME_LENGTHS.short).join("").trim() || "?";
}

const FIXED_SIZES: Record<string, string> = {
  logo_colour_square: "32x32",
  logo_colour_rectangle: "112x32",
};

function importLogos(images: readonly FeedImage[], notes: ImportNote[]): LogoInput[] {
  const fixedSizes = new Set(Object.values(FIXED_SIZES));
  return images.flatMap((image): LogoInput[] => {
    const declared = image.type ? FIXED_SIZES[image.type] : undefined;
    const size =
      image.width !== undefined && image.height !== undefined
        ? `${image.width}x${image.height}`
        : declared;
    if (size === undefined) {
      notes.push({
        origin: image.origin,
        message: `logo ${image.url} without width and height is not imported`,
      });
      return [];
    }
    const byExtension = imageMimeType(image.url);
    const mimeValue = image.mimeValue ?? byExtension;
    let unrestricted = declared === undefined;
    // EPG 1.x and some platforms write logo_square and the like: the data has no such type.
    if (image.type !== undefined && declared === undefined && image.type !== "logo_unrestricted") {
      notes.push({
        origin: image.origin,
        message: `logo type ${image.type} is not one of SPI 3.1 (logo_colour_square, logo_colour_rectangle, logo_unrestricted): imported as logo_unrestricted at ${size}`,
      });
    }
    if (declared !== undefined && size !== declared) {
      notes.push({
        origin: image.origin,
        message: `${image.type} at ${size} (it must be ${declared}) is imported as logo_unrestricted`,
      });
      unrestricted = true;
    }
    // TS 102 818 §5.8: the fixed sizes are PNG; another image at that size is unrestricted.
    if (!unrestricted && mimeValue !== undefined && mimeValue !== "image/png") {
      notes.push({
        origin: image.origin,
        message: `${image.type} must be PNG, and this is ${mimeValue}: imported as logo_unrestricted`,
      });
      unrestricted = true;
    }
    if (unrestricted && mimeValue === undefined) {
      notes.push({
        origin: image.origin,
        message: `logo ${image.url} names no media type and its URL has no image extension: not imported`,
      });
      return [];
    }
    return [
      {
        url: image.url,
        size,
        ...(unrestricted && fixedSizes.has(size) ? { type: "logo_unrestricted" as const } : {}),
        ...(mimeValue !== undefined && mimeValue !== byExtension ? { mimeValue } : {}),
      },
    ];
  });
}

/** The data holds one point and one polygon: more are noted. */
function geolocationOf(
  geolocation: FeedGeolocation | undefined,
  notes: ImportNote[],
): { geolocation?: GeolocationInput } {
  if (!geolocation) return {};
  const { countries, points, polygons, origin } = geolocation;
  if (points.length > 1 || polygons.length > 1) {
    notes.push({
      origin,
      message: "only the first point and the first polygon of a geolocation are imported",
    });
  }
  const point = points[0]?.[0];
  const polygon = polygons[0];
  const result: GeolocationInput = {
    ...(countries.length === 1 ? { country: countries[0] } : {}),
    ...(countries.length > 1 ? { country: countries } : {}),
    ...(point ? { point } : {}),
    ...(polygon ? { polygon } : {}),
  };
  if (Object.keys(result).length === 0) {
    notes.push({ origin, message: "an empty geolocation is left out" });
    return {};
  }
  return { geolocation: result };
}
