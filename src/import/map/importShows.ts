import { type EpisodeInput, episodeSchema } from "../../load/schema/episodesSchema.js";
import type { Link } from "../../load/schema/fields.js";
import { type Show, showSchema } from "../../load/schema/showSchema.js";
import { websiteLabel } from "../../render/websiteLabel.js";
import { programmeCrid, showGroupCrid } from "../../schedule/programmeCrid.js";
import type { ImportNote } from "../importNote.js";
import type { FeedLink, FeedProgramme } from "../read/feedModel.js";
import { importLinks, importTexts } from "./feedTexts.js";
import { importGenre, importImage } from "./importProgrammeMedia.js";
import { importEvents, importOnDemand, placedEvents } from "./importProgrammeParts.js";

/** What a service's shows are made from, and what the build will derive on its own. */
export interface ShowContext {
  serviceId: string;
  cridAuthority: string;
  /** The language of the service's texts. */
  language: string;
}

/** What an episode gives an airing: the fields it publishes unlike its show, its own CRID. */
export type EpisodeContent = Omit<EpisodeInput, "date" | "start">;

/** The shows of one service, which show each airing is, and each airing's episode if any. */
export interface ImportedShows {
  shows: Record<string, Show>;
  /** Parallel to the airings given. */
  showIds: string[];
  /** Parallel to the airings given: undefined where the airing is its show as it is. */
  episodes: (EpisodeContent | undefined)[];
}

/**
 * Groups a service's airings into shows: by `memberOf` (the programme group), else by name.
 * The version most airings of a group publish is the show; an airing that publishes other
 * texts, images or links gets an episode with what differs, and one whose CRID is not the
 * derived one an episode with its CRID. Where an episode cannot say the difference (an airing
 * without the show's website or on-demand), the airing's version becomes a show of its own in
 * the same group (`<id>-2`, …). So every airing keeps exactly what it published.
 */
export function importShows(
  airings: readonly FeedProgramme[],
  context: ShowContext,
  notes: ImportNote[],
): ImportedShows {
  const groups = new Map<string, Map<string, { show: Show; count: number }>>();
  const keys: { group: string; version: string }[] = [];
  const groupShortIds = groupShortIdsOf(airings, notes);
  for (const airing of airings) {
    const show = showOf(airing, context, notes);
    const group = airing.memberOf[0] ?? `name:${show.name.long}`;
    const version = JSON.stringify(show);
    let versions = groups.get(group);
    if (!versions) {
      versions = new Map();
      groups.set(group, versions);
    }
    const seen = versions.get(version);
    if (seen) seen.count++;
    else versions.set(version, { show, count: 1 });
    keys.push({ group, version });
  }
  notePerAiringFacts(airings, notes);

  const shows: Record<string, Show> = {};
  /** group + version → the show id and what an episode must give. */
  const placed = new Map<string, { id: string; fields: Partial<Show> | undefined }>();
  for (const [group, versions] of groups) {
    const ranked = [...versions.entries()].sort((a, b) => b[1].count - a[1].count);
    const [, first] = ranked[0] ?? [];
    if (!first) continue;
    const base = uniqueId(baseIdOf(group, first.show, context), shows);
    const groupCrid = group.startsWith("name:")
      ? showGroupCrid(context.cridAuthority, context.serviceId, base)
      : group;
    const groupShortId = groupShortIds.get(group);
    const add = (id: string, show: Show) => {
      const ownGroup = showGroupCrid(context.cridAuthority, context.serviceId, id);
      shows[id] = {
        ...show,
        ...(groupCrid === ownGroup ? {} : { group: groupCrid }),
        ...(groupShortId !== undefined ? { groupShortId } : {}),
      };
    };
    add(base, first.show);
    let extra = 1;
    for (const [version, { show }] of ranked) {
      const fields = show === first.show ? {} : episodeFields(first.show, show);
      if (fields) {
        placed.set(`${group}\n${version}`, { id: base, fields });
        continue;
      }
      const id = uniqueId(`${base}-${++extra}`, shows);
      add(id, show);
      placed.set(`${group}\n${version}`, { id, fields: {} });
    }
  }
  const showIds: string[] = [];
  const episodes: (EpisodeContent | undefined)[] = [];
  keys.forEach((key, index) => {
    const airing = airings[index] as FeedProgramme;
    const { id, fields: versionFields = {} } = placed.get(`${key.group}\n${key.version}`) ?? {
      id: "",
    };
    showIds.push(id);
    const fields = withoutPlacedEvents(versionFields, shows[id], airing);
    const derived = programmeCrid(context.cridAuthority, context.serviceId, airing.start);
    const crid = airing.crid !== derived && airing.crid !== "" ? { crid: airing.crid } : {};
    const locator = eventLocatorOf(airing.links);
    const identifiers = locator ? { terrestrialEventLocator: locator } : {};
    const given = Object.keys(fields).length > 0 || "crid" in crid || locator !== undefined;
    episodes.push(given ? { show: id, ...fields, ...crid, ...identifiers } : undefined);
  });
  // In id order: the same shows are listed alike, whichever days the feed showed first.
  const sorted = Object.fromEntries(Object.entries(shows).sort(([a], [b]) => a.localeCompare(b)));
  return { shows: sorted, showIds, episodes };
}

/**
 * An episode's events are needed only where the show's, placed in this airing as the build
 * places them, are not what the airing publishes: an hourly bulletin is one event with `every`
 * whether the airing holds three of them or seven.
 */
function withoutPlacedEvents(
  fields: Partial<Show>,
  show: Show | undefined,
  airing: FeedProgramme,
): Partial<Show> {
  if (!("events" in fields) || !show) return fields;
  const minutes = Math.floor((airing.end - airing.start) / 60_000);
  const own = placedEvents(show.events, minutes);
  if (
    own === undefined ||
    JSON.stringify(own) !== JSON.stringify(placedEvents(fields.events, minutes))
  ) {
    return fields;
  }
  const { events: _same, ...rest } = fields;
  return rest;
}

/** A field an episode can empty by giving it empty; the others it can only replace. */
const EMPTIED: Partial<Record<keyof Show, unknown>> = {
  description: {},
  images: [],
  genres: [],
  keywords: [],
  links: [],
  translations: {},
  events: [],
};

/**
 * What an episode of `show` gives so that the airing publishes `version`: each field that
 * differs. Undefined when a field the show has cannot be taken away by an episode.
 */
function episodeFields(show: Show, version: Show): Partial<Show> | undefined {
  const fields: Record<string, unknown> = {};
  const names = new Set([...Object.keys(show), ...Object.keys(version)]) as Set<keyof Show>;
  for (const field of names) {
    if (JSON.stringify(show[field]) === JSON.stringify(version[field])) continue;
    if (version[field] !== undefined) fields[field] = version[field];
    else if (field in EMPTIED) fields[field] = EMPTIED[field];
    else return undefined;
  }
  return fields as Partial<Show>;
}

/** The show an airing publishes: everything of the programme but its times and CRID. */
function showOf(airing: FeedProgramme, context: ShowContext, notes: ImportNote[]): Show {
  const { origin } = airing;
  const texts = importTexts(airing, context.language, origin, notes);
  let name = texts.name;
  if (!name) {
    name = { long: airing.crid };
    notes.push({ origin, message: `programme ${airing.crid} has no name: its CRID is its name` });
  }
  const images = airing.images.flatMap((image) => importImage(image, notes));
  const genres = airing.genres.flatMap((genre) =>
    importGenre(genre, context.language, origin, notes),
  );
  const { website, terrestrialProgrammeCrid, links } = splitLinks(texts.links, context, notes);
  const { description, keywords, translations } = texts;
  const events = importEvents(airing, context.language, notes);
  const onDemand = importOnDemand(airing, notes);
  return {
    name,
    ...(description ? { description } : {}),
    ...(images.length > 0 ? { images } : {}),
    ...(website ? { website } : {}),
    ...(terrestrialProgrammeCrid ? { terrestrialProgrammeCrid } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
    ...(events.length > 0 ? { events } : {}),
    ...(onDemand ? { onDemand } : {}),
  };
}

/**
 * The show's website is the link the build would write for it: http(s), text/html, described
 * with the word for "Website" in the service's language (undescribed where spi-static knows no
 * word). The terrestrial links are the data's identifiers the build writes as links: the
 * programme CRID a field of the show, the event locator one of the airing's episode
 * (eventLocatorOf). Every other link is one of the show's links.
 */
function splitLinks(
  links: readonly FeedLink[],
  context: ShowContext,
  notes: ImportNote[],
): { website: string | undefined; terrestrialProgrammeCrid: string | undefined; links: Link[] } {
  const label = websiteLabel(context.language);
  let website: string | undefined;
  let terrestrialProgrammeCrid: string | undefined;
  const rest: FeedLink[] = [];
  for (const link of links) {
    if (isTerrestrial(link, "terrestrial_event_locator")) continue;
    if (isTerrestrial(link, "terrestrial_programme_crid") && !terrestrialProgrammeCrid) {
      terrestrialProgrammeCrid = link.uri;
      continue;
    }
    const isWebsite =
      /^https?:\/\//i.test(link.uri) &&
      link.mimeValue === "text/html" &&
      link.description === label;
    if (isWebsite && website === undefined) website = link.uri;
    else rest.push(link);
  }
  return { website, terrestrialProgrammeCrid, links: importLinks(rest, notes) };
}

/** A terrestrial link the data can give as its field (checked as the loader checks it). */
function isTerrestrial(
  link: FeedLink,
  description: "terrestrial_event_locator" | "terrestrial_programme_crid",
): boolean {
  if (link.description !== description) return false;
  const field =
    description === "terrestrial_event_locator"
      ? episodeSchema.shape.terrestrialEventLocator
      : showSchema.shape.terrestrialProgrammeCrid;
  return field.safeParse(link.uri).success;
}

/** The airing's terrestrial event locator: one broadcast event, so its episode's. */
function eventLocatorOf(links: readonly FeedLink[]): string | undefined {
  return links.find((link) => isTerrestrial(link, "terrestrial_event_locator"))?.uri;
}

/** What every airing has that the data cannot carry: a second group, a group of no name. */
function notePerAiringFacts(airings: readonly FeedProgramme[], notes: ImportNote[]) {
  for (const airing of airings) {
    if (airing.memberOf.length === 0) {
      notes.push({
        origin: airing.origin,
        message:
          "programmes without memberOf are grouped by name, and the build gives them their show's group CRID",
      });
    }
    if (airing.memberOf.length > 1) {
      notes.push({
        origin: airing.origin,
        message: `memberOf ${airing.memberOf.slice(1).join(", ")} is not imported: a show belongs to one group`,
      });
    }
  }
}

/**
 * A show id from its group CRID when that is the build's own form
 * (`crid://<authority>/<service>/<show id>`), else from its name.
 */
function baseIdOf(group: string, show: Show, context: ShowContext): string {
  const prefix = `crid://${context.cridAuthority}/${context.serviceId}/`;
  const own = group.startsWith(prefix) ? group.slice(prefix.length) : undefined;
  if (own !== undefined && IDENTIFIER.test(own)) return own;
  return slugOf(show.name.long);
}

const IDENTIFIER = /^[a-z][a-z0-9-]{0,63}$/;

/** `Heart Breakfast with Jamie & Emma` → `heart-breakfast-with-jamie-emma`. */
function slugOf(text: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  if (slug === "") return "show";
  return /^[a-z]/.test(slug) ? slug : `show-${slug}`;
}

function uniqueId(id: string, taken: Record<string, unknown>): string {
  if (!(id in taken)) return id;
  for (let n = 2; ; n++) {
    const candidate = `${id}-${n}`;
    if (!(candidate in taken)) return candidate;
  }
}

/**
 * Each memberOf group's shortId, kept on its shows. Airings of one group that give it different
 * shortIds cannot all be kept: the most common is, and the others are noted.
 */
function groupShortIdsOf(
  airings: readonly FeedProgramme[],
  notes: ImportNote[],
): Map<string, number> {
  const counts = new Map<string, Map<number, number>>();
  for (const airing of airings) {
    const [group] = airing.memberOf;
    if (group === undefined || airing.groupShortId === undefined) continue;
    const byShortId = counts.get(group) ?? new Map<number, number>();
    counts.set(group, byShortId);
    byShortId.set(airing.groupShortId, (byShortId.get(airing.groupShortId) ?? 0) + 1);
  }
  const chosen = new Map<string, number>();
  for (const [group, byShortId] of counts) {
    const [best] = [...byShortId].sort((a, b) => b[1] - a[1])[0] ?? [];
    if (best !== undefined) chosen.set(group, best);
  }
  for (const airing of airings) {
    const [group] = airing.memberOf;
    if (group === undefined || airing.groupShortId === undefined) continue;
    const kept = chosen.get(group);
    if (kept !== airing.groupShortId) {
      notes.push({
        origin: airing.origin,
        message: `memberOf ${group} with shortId ${airing.groupShortId} is imported with shortId ${kept}, the one most of its airings give`,
      });
    }
  }
  return chosen;
}
