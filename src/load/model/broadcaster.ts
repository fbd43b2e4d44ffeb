import type { PlainDate, Weekday } from "../../time/plainDate.js";
import type { LogoSizeName } from "../formats/logoSizes.js";
import type { LogoType } from "../formats/spiFormat.js";
import type {
  Description as DescriptionInput,
  Genre as GenreInput,
  Link as LinkInput,
  Names as NamesInput,
  ShortIdPolicy,
  Translation as TranslationInput,
} from "../schema/fields.js";
import type { DatedEntry as DatedEntryInput } from "../schema/scheduleSchema.js";
import type {
  OnDemandFile as OnDemandFileInput,
  ProgrammeEventInput,
  Show as ShowInput,
} from "../schema/showSchema.js";
import type { InputProblem, SourceRef } from "../text/inputProblem.js";

/**
 * The validated model that the load stage hands to the schedule and render stages. Nothing
 * changes it after loading (hence readonly throughout): the render stage keeps each show's
 * programme element for the build, keyed by the show.
 */
export interface Broadcaster {
  readonly provider: Provider;
  readonly services: readonly Service[];
}

export interface Provider {
  /**
   * A SHA-256 of provider.yaml (kind and bytes): what every document is made from besides the
   * program and its own service (render/documentInputs.ts).
   */
  readonly sources: string;
  /** SPI's serviceProvider needs a shortName, as a service does. */
  readonly name: Names & { short: string };
  readonly description: Description | undefined;
  readonly originator: string;
  readonly language: string;
  readonly timeZone: string;
  readonly radiodnsHost: string;
  readonly cridAuthority: string;
  readonly piMarginHours: number;
  readonly shortIds: ShortIdPolicy;
  /** The services' default: publish programmeEvent elements. */
  readonly programmeEvents: boolean;
  readonly logos: readonly Logo[];
  readonly links: readonly Link[];
  readonly keywords: readonly string[];
  /** The texts above in other languages, by language tag in the order written. */
  readonly translations: Translations;
  readonly geolocation: Geolocation | undefined;
  /** Published in SI after the services; services name theirs in `groups`. */
  readonly serviceGroups: readonly ServiceGroup[];
  readonly discovery: Discovery;
}

/**
 * TS 102 818 §6.9; its texts are in the provider's language. A service says all a group says
 * (Service extends it) and more.
 */
export interface ServiceGroup {
  readonly id: string;
  readonly name: Names & { short: string };
  readonly description: Description | undefined;
  readonly logos: readonly Logo[];
  readonly genres: readonly Genre[];
  readonly keywords: readonly string[];
  readonly links: readonly Link[];
  /** The texts above in other languages, by language tag in the order written. */
  readonly translations: Translations;
  readonly geolocation: Geolocation | undefined;
}

/** TS 102 818 §5.12, for a provider, service or service group. */
export interface Geolocation {
  /** ISO 3166-1 alpha-2, upper case. */
  readonly countries: readonly string[];
  /** [latitude, longitude], WGS84. */
  readonly point: readonly [number, number] | undefined;
  /** Closed: the last point repeats the first. */
  readonly polygon: readonly (readonly [number, number])[] | undefined;
}

/** How radios find the site (TS 102 818 §10.2.2) and whether PI needs a key. */
export interface Discovery {
  /** The host that serves out/: the target of the SRV records. */
  readonly host: string;
  readonly httpsPort: number;
  readonly httpPort: number;
  /** PI without a key. */
  readonly openPi: boolean;
  /**
   * `spi-static dns` writes _radioepg (plain HTTP, no key) beside _radiospi: the clients in use
   * look only for it. With keyed PI they get the open SI and 401 for PI (TS 102 818 §10.5.5).
   */
  readonly radioepg: boolean;
  /** ISO 3166 code under which FM services are also looked up, if any. */
  readonly fmCountry: string | undefined;
}

export interface Logo {
  readonly url: string;
  readonly width: number;
  readonly height: number;
  readonly type: LogoType;
  readonly mimeValue: string | undefined;
  /** How the build makes it from a source image in the data folder (src/logos, issue 27). */
  readonly made?: LogoRecipe | undefined;
}

/** How the build makes one logo: carried on the model's Logo (`made`) to the build. */
export interface LogoRecipe {
  readonly size: LogoSizeName;
  readonly source: {
    /** The file's path (the data folder's path joined with the one written in the YAML). */
    readonly path: string;
    /** As messages show it. */
    readonly display: string;
    readonly digest: string;
  };
  /** "#rrggbb": contained on this colour; without one, on transparency. */
  readonly background: string | undefined;
  /** A hand-drawn image for this size (`logo.sizes`): published as it is. */
  readonly asIs: boolean;
  /** What a made logo is encoded as: PNG, or JPEG for the large sizes with `logo.jpeg`. */
  readonly format: "png" | "jpeg";
  /** Its path in the output folder: named by a hash of everything its bytes depend on. */
  readonly path: string;
  /** Where the YAML names its source, for a problem met while making it. */
  readonly origin: SourceRef;
}

export interface Bearer {
  readonly id: string;
  readonly cost: number;
  readonly mimeValue?: string | undefined;
  readonly bitrate?: number | undefined;
  readonly offset?: number | undefined;
}

/** Where a service's PI is published: `<radiodns fqdn serviceIdentifier>` (TS 102 818 §6.5.3). */
export interface RadiodnsId {
  /** Its Authoritative FQDN: the provider's radiodnsHost unless the service has its own. */
  readonly fqdn: string;
  /** Its id under that FQDN: the service's id unless it sets another. */
  readonly serviceIdentifier: string;
}

export interface Service extends ServiceGroup {
  /** Unique across services (load checks it): PI paths and lookup names follow it. */
  readonly radiodns: RadiodnsId;
  /** A SHA-256 of the files it was loaded from: its service file, schedule and episode files. */
  readonly sources: string;
  readonly language: string;
  readonly timeZone: string;
  /** Its programmes' shortIds: 0, or unique ones from their starts (the provider's unless its own). */
  readonly shortIds: ShortIdPolicy;
  /** Its shows' events are published as programmeEvent elements (false: left out of PI). */
  readonly programmeEvents: boolean;
  /** Its share of the provider's unique shortIds (schedule/programmeShortId.ts). */
  readonly shortIdSlot: number;
  /** The ids of the provider's service groups it is a member of. */
  readonly groups: readonly string[];
  /** ISO 3166 code (lower case) its FM bearers are also looked up by, if any. */
  readonly fmCountry: string | undefined;
  /** Broadcast bearers (DAB, FM, HD Radio, DRM, AMSS): in both SI documents. */
  readonly bearers: readonly Bearer[];
  /** IP streams: only in the keyed SI document. */
  readonly streams: readonly Bearer[];
  readonly schedule: Schedule;
}

/** A slot of the weekly grid or of a dated day, times in minutes after local midnight. */
export interface Slot {
  readonly start: number;
  readonly end: number | undefined;
  readonly show: string;
  readonly origin: SourceRef;
}

export interface SpecialSlot {
  readonly start: number;
  readonly end: number;
  readonly show: string;
  readonly crid: string | undefined;
  readonly origin: SourceRef;
}

export interface DatedDay {
  readonly date: string;
  /** Replaces the weekday grid for this date when present. */
  readonly slots: readonly Slot[] | undefined;
  readonly specials: readonly SpecialSlot[];
  readonly origin: SourceRef;
}

export interface Schedule {
  readonly shows: Readonly<Record<string, Show>>;
  readonly week: Readonly<Record<Weekday, readonly Slot[]>>;
  readonly dates: ReadonlyMap<string, DatedDay>;
  /** The episodes of the schedule file and of episodes/<service id>/. */
  readonly episodes: EpisodeSource;
}

/**
 * A service's episodes, read each time the service is laid out and let go after: with text for
 * every airing they are most of a data folder (65 of 70 MB in the benchmark's), and a model
 * holding every service's took the 100-service build to 476 MB (BENCHMARKS.md, issue 15). Each
 * list was validated when the data folder was read; `load` indexes them (from the input cache,
 * or the serialized values of files parsed in this build) with the checks across a service's
 * lists (loadEpisodes.ts), reporting into `problems`.
 */
export interface EpisodeSource {
  /** Without `problems`, loaded to be rendered: unchecked, their origins NOT_LOCATED. */
  load(problems: InputProblem[] | undefined): EpisodesByDate;
  /**
   * Checked as `load(problems)`, but only the lists `pick` takes, by index (the schedule's own,
   * then the episode files in order), and the dates each list taken holds. A day-by-day check
   * reads only the lists that hold its new days (schedule/rollCheck.ts): as long as the lists
   * are the same files and had no errors, their episodes of those days are the same.
   */
  loadLists(
    problems: InputProblem[],
    pick: (list: number) => boolean,
  ): { episodes: EpisodesByDate; listDates: EpisodeListDates[] };
}

/** The first and last date of a list's episodes; null for none (or a list not read). */
export type EpisodeListDates = readonly [PlainDate, PlainDate] | null;

export type EpisodesByDate = ReadonlyMap<PlainDate, readonly Episode[]>;

/**
 * What one airing says instead of its show: each field given replaces the show's field of that
 * name as a whole (an episode's name is its whole name, short and medium included).
 */
export interface Episode {
  /** The local date the airing starts on. */
  readonly date: PlainDate;
  /** Its local start, minutes after midnight; needed when the show airs twice that day. */
  readonly start: number | undefined;
  readonly show: string | undefined;
  readonly crid: string | undefined;
  readonly content: Partial<Show>;
  readonly origin: SourceRef;
}

/** A segment of a programme, times in minutes after the programme's start. */
export type ProgrammeEvent = Omit<
  DeepReadonly<ProgrammeEventInput>,
  "offset" | "duration" | "every"
> & {
  readonly offset: number;
  readonly duration: number;
  /** Repeats at this interval while it fits; undefined: once. */
  readonly every: number | undefined;
  readonly origin: SourceRef;
};

/** Catch-up availability; instants in UTC ms, lengths in minutes. */
export interface OnDemand {
  readonly files: readonly DeepReadonly<OnDemandFileInput>[];
  /** Undefined: from the end of each airing. */
  readonly from: number | undefined;
  readonly until: number | undefined;
  readonly days: number | undefined;
  /** The recording's length; undefined: the airing's. */
  readonly duration: number | undefined;
  readonly origin: SourceRef;
}

/** The parts the schema describes as they are written, read-only all the way down. */
type DeepReadonly<T> = T extends readonly (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
    : T;

export type Description = DeepReadonly<DescriptionInput>;
export type Genre = DeepReadonly<GenreInput>;
export type Link = DeepReadonly<LinkInput>;
export type Names = DeepReadonly<NamesInput>;
/** A show as published: its events and on-demand availability resolved to times. */
export type Show = Omit<DeepReadonly<ShowInput>, "events" | "onDemand"> & {
  readonly events?: readonly ProgrammeEvent[];
  readonly onDemand?: OnDemand;
  /** Given by an episode only: a locator names one broadcast event, never every airing of a show. */
  readonly terrestrialEventLocator?: string;
};
export type Translation = DeepReadonly<TranslationInput>;
/** By language tag; a language appears once (tags compared case-insensitively). */
export type Translations = Readonly<Record<string, Translation>>;
export type DatedEntry = DeepReadonly<DatedEntryInput>;

/** Every Authoritative FQDN a build publishes under: the provider's first, then the services' own. */
export function authoritativeFqdns(broadcaster: Broadcaster): string[] {
  const { provider, services } = broadcaster;
  return [...new Set([provider.radiodnsHost, ...services.map((service) => service.radiodns.fqdn)])];
}

/**
 * The FQDNs some service's PI is published under; the provider's radiodnsHost only when a
 * service uses it (PI files under it are otherwise a host left behind, as after a move).
 */
export function publishedFqdns(broadcaster: Broadcaster): string[] {
  return [...new Set(broadcaster.services.map((service) => service.radiodns.fqdn))];
}
