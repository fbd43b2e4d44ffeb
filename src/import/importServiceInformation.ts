import type {
  GeolocationInput,
  LogoInput,
  ProviderInput,
  ServiceInput,
} from "../load/inputSchema.js";
import { imageMimeType } from "../load/mediaType.js";
import { NAME_LENGTHS, SERVICE_ID_PATTERN } from "../load/spiFormat.js";
import type { FeedDescribed, FeedGeolocation, FeedImage, FeedService } from "./feedModel.js";
import { importLinks, importTexts, withinLimit } from "./feedTexts.js";
import type { ImportNote } from "./importNote.js";
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

/** A service file without its schedule; `id` is the RadioDNS serviceIdentifier if it has one. */
export function importService(
  service: FeedService,
  id: string,
  language: string,
  providerLanguage: string,
  notes: ImportNote[],
): ServiceInput {
  const { origin } = service;
  const texts = importTexts(service, language, origin, notes);
  const names = texts.name ?? { long: id };
  const short = names.short ?? shortNameFrom(names.medium ?? names.long, origin, notes);
  const { description, keywords, translations } = texts;
  const logos = importLogos(service.images, notes);
  const genres = service.genres.map((genre) => importGenre(genre, language, origin, notes));
  if (genres.length === 0) {
    notes.push({
      origin,
      message: `service ${id} has no genre, and a service needs one: add one to services/${id}.yaml`,
    });
  }
  const links = importLinks(texts.links, notes);
  const dab: NonNullable<NonNullable<ServiceInput["bearers"]>["dab"]> = [];
  const fm: NonNullable<NonNullable<ServiceInput["bearers"]>["fm"]> = [];
  const streams: NonNullable<ServiceInput["streams"]> = [];
  for (const bearer of service.bearers) {
    const offset = bearer.offset !== undefined ? { offset: bearer.offset } : {};
    if (/^dab:/.test(bearer.id)) {
      const mimeValue = bearer.mimeValue === "audio/mpeg" ? "audio/mpeg" : "audio/aacp";
      if (bearer.mimeValue !== mimeValue) {
        notes.push({
          origin: bearer.origin,
          message: `DAB bearer ${bearer.id} with mimeValue ${bearer.mimeValue ?? "(none)"}: imported as audio/aacp`,
        });
      }
      const { bitrate } = bearer;
      const dabRate = bitrate !== undefined && bitrate >= 8 && bitrate <= 384 && bitrate % 8 === 0;
      if (bitrate !== undefined && !dabRate) {
        notes.push({
          origin: bearer.origin,
          message: `DAB bitrate ${bitrate} is not imported: a DAB sub-channel runs at 8 to 384 kbit/s in steps of 8`,
        });
      }
      dab.push({
        id: bearer.id.toLowerCase(),
        mimeValue,
        ...(dabRate ? { bitrate } : {}),
        ...cost(bearer.cost, 20),
        ...offset,
      });
    } else if (/^fm:/.test(bearer.id)) {
      fm.push({ id: bearer.id.toLowerCase(), ...cost(bearer.cost, 50), ...offset });
    } else if (/^https?:\/\//i.test(bearer.id)) {
      if (bearer.mimeValue === undefined || bearer.bitrate === undefined) {
        notes.push({
          origin: bearer.origin,
          message: `stream ${bearer.id} without mimeValue and bitrate is not imported (a stream needs both)`,
        });
        continue;
      }
      streams.push({
        url: bearer.id,
        mimeValue: bearer.mimeValue,
        bitrate: bearer.bitrate,
        ...cost(bearer.cost, 100),
        ...offset,
      });
    } else {
      notes.push({
        origin: bearer.origin,
        message: `bearer ${bearer.id} is not imported: spi-static publishes DAB, FM and http(s) streams`,
      });
    }
  }
  return {
    id,
    name: { ...names, short },
    ...(description ? { description } : {}),
    ...(language !== providerLanguage ? { language } : {}),
    ...(logos.length > 0 ? { logos } : {}),
    genres,
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(dab.length + fm.length > 0
      ? { bearers: { ...(dab.length ? { dab } : {}), ...(fm.length ? { fm } : {}) } }
      : {}),
    ...(streams.length > 0 ? { streams } : {}),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
    ...geolocationOf(service.geolocation, notes),
  };
}

/** The service ids: each service's RadioDNS serviceIdentifier, else one made from its name. */
export function serviceIdsOf(services: readonly FeedService[]): string[] {
  const taken = new Set<string>();
  return services.map((service) => {
    const own = service.radiodns?.serviceIdentifier;
    const name = [...service.names.short, ...service.names.medium, ...service.names.long][0];
    const base =
      own !== undefined && SERVICE_ID_PATTERN.test(own)
        ? own
        : (name?.text ?? "service")
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
  return images.flatMap((image): LogoInput[] => {
    const fixed = image.type ? FIXED_SIZES[image.type] : undefined;
    const size =
      image.width !== undefined && image.height !== undefined
        ? `${image.width}x${image.height}`
        : fixed;
    if (size === undefined) {
      notes.push({
        origin: image.origin,
        message: `logo ${image.url} without width and height is not imported`,
      });
      return [];
    }
    const byExtension = imageMimeType(image.url);
    const mimeValue = fixed ? undefined : (image.mimeValue ?? byExtension);
    if (!fixed && mimeValue === undefined) {
      notes.push({
        origin: image.origin,
        message: `logo ${image.url} names no media type and its URL has no image extension: not imported`,
      });
      return [];
    }
    if (fixed && size !== fixed) {
      notes.push({
        origin: image.origin,
        message: `${image.type} at ${size} (it must be ${fixed}) is imported as logo_unrestricted`,
      });
    }
    return [
      {
        url: image.url,
        size,
        ...(fixed && size !== fixed ? { type: "logo_unrestricted" as const } : {}),
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
