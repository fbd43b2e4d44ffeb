import { basename, dirname } from "node:path";
import { genreTermOf } from "../load/formats/genreTerm.js";
import { LOGO_SIZE_NAMES } from "../load/formats/logoSizes.js";
import type { Logo, Service } from "../load/model/broadcaster.js";
import { formatProblem, type InputProblem } from "../load/text/inputProblem.js";
import { deriveNames } from "../render/deriveNames.js";
import type { AiringKind, ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ScheduledBroadcaster } from "../schedule/scheduleBroadcaster.js";
import { API_WINDOW_DAYS, OPEN_SI_PATH, programmeInformationPath } from "../site/siteContract.js";
import { addDays, dateRange, type PlainDate, weekdayIndex } from "../time/plainDate.js";
import { localDateOf, offsetMinutes, resolveWallTime } from "../time/wallClock.js";

const HOUR = 3_600_000;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** What the EPG page shows of the whole site: services, days and problems; no programmes. */
export interface EpgSite {
  provider: { name: string; timeZone: string };
  /** The preview's clock (UTC ms), and whether it is fixed by `--now`. */
  now: number;
  clockFixed: boolean;
  today: PlainDate;
  days: EpgDayTab[];
  services: EpgService[];
  /** Warnings that concern no single service (the provider's, a stray file's). */
  problems: string[];
  siPath: string;
  /** The development key for the links to keyed documents, when one is known. */
  devKey: string | undefined;
}

export interface EpgDayTab {
  date: PlainDate;
  label: string;
  /** Length of the day in the provider's zone: 23 or 25 on a DST night. */
  hours: number;
}

export interface EpgService {
  id: string;
  timeZone: string;
  names: { short: string; medium: string; long: string };
  /** What a receiver shows: the 8- and 16-character names, and the logo at each expected size. */
  receiver: { short: string; medium: string; logos: EpgLogo[] };
  problems: string[];
}

export interface EpgLogo {
  size: string;
  width: number;
  height: number;
  url: string | undefined;
}

/** One local day of every service: a row each. */
export interface EpgDay {
  date: PlainDate;
  rows: EpgRow[];
}

export interface EpgRow {
  serviceId: string;
  /** The local day in UTC ms: 23, 24 or 25 hours. */
  dayStart: number;
  dayEnd: number;
  hours: number;
  /** `UTC+01:00`, or `UTC+02:00 → UTC+01:00` on the night the clocks change. */
  offsets: string;
  /** One mark per real hour, labelled in local time: a repeated or skipped hour shows. */
  ticks: { at: number; label: string }[];
  piPath: string;
  blocks: EpgBlock[];
}

export type EpgBlock = EpgProgramme | EpgGap;

export interface EpgProgramme {
  type: "programme";
  start: number;
  end: number;
  /** Local 24-hour times, `06:00–09:00`. */
  time: string;
  duration: string;
  /** Began the day before, or runs into the next: the block shows only this day's part. */
  fromPreviousDay: boolean;
  intoNextDay: boolean;
  crid: string;
  showId: string;
  names: { short: string | undefined; medium: string; long: string };
  description: string | undefined;
  image: string | undefined;
  website: string | undefined;
  /** Its genres as a receiver shows them: the term's label in its scheme, with the URN. */
  genres: EpgGenre[];
  airing: AiringKind;
  /** The YAML slot or special it comes from, `data/schedules/news.yaml:12:7`. */
  source: string;
  problems: string[];
}

export interface EpgGenre {
  /** The term's English label (`Alternative / Indie`); the YAML's name for a term not listed. */
  label: string;
  href: string;
}

/** Dead air: nothing scheduled between two programmes. */
export interface EpgGap {
  type: "gap";
  start: number;
  end: number;
  time: string;
  duration: string;
}

export interface EpgInput {
  scheduled: ScheduledBroadcaster;
  /** The build's warnings, exactly as validate prints them. */
  problems: InputProblem[];
  now: number;
  clockFixed: boolean;
  devKey: string | undefined;
}

/** The days the API serves around today; the build's margin days are not served. */
function servedDates(today: PlainDate): PlainDate[] {
  return dateRange(addDays(today, -API_WINDOW_DAYS), addDays(today, API_WINDOW_DAYS));
}

function dayBounds(zone: string, date: PlainDate) {
  const start = resolveWallTime(zone, date, 0);
  const end = resolveWallTime(zone, addDays(date, 1), 0);
  return { start, end, hours: (end - start) / HOUR };
}

function clock(zone: string, instant: number): string {
  return new Date(instant + offsetMinutes(zone, instant) * 60_000).toISOString().slice(11, 16);
}

function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h ? `${h} h` : "", m ? `${m} min` : ""].filter(Boolean).join(" ") || "0 min";
}

/**
 * Which service a problem concerns: a schedule file is known from its slots; a service file is
 * taken to be services/<id>.yaml, the layout `init` and the example use.
 */
function problemOwner(
  problem: InputProblem,
  scheduleFiles: Map<string, string>,
  serviceIds: Set<string>,
): string | undefined {
  const owner = scheduleFiles.get(problem.file);
  if (owner) return owner;
  const id = basename(problem.file).replace(/\.ya?ml$/, "");
  const folder = basename(dirname(problem.file));
  return (folder === "services" || folder === "schedules") && serviceIds.has(id) ? id : undefined;
}

function scheduleFileOf(service: Service): string | undefined {
  for (const slots of Object.values(service.schedule.week)) {
    if (slots[0]) return slots[0].origin.file;
  }
  for (const dated of service.schedule.dates.values()) {
    const origin = dated.slots?.[0]?.origin ?? dated.specials[0]?.origin;
    if (origin) return origin.file;
  }
  return undefined;
}

function receiverLogos(logos: readonly Logo[]): EpgLogo[] {
  return LOGO_SIZE_NAMES.map((size) => {
    const [width, height] = size.split("x").map(Number) as [number, number];
    const logo = logos.find((l) => l.width === width && l.height === height);
    // A logo the build made is in out/: the preview serves it from its own origin (issue 27).
    return { size, width, height, url: logo?.made ? `/${logo.made.path}` : logo?.url };
  });
}

function sourceKey(file: string, line: number, column: number): string {
  return `${file}:${line}:${column}`;
}

/**
 * The EPG preview's view of a build: the same scheduled model the build renders into PI and SI
 * documents (names derived as the renderer derives them), arranged as a grid of local days.
 */
export function epgModel(input: EpgInput) {
  const { scheduled, problems, now } = input;
  const { broadcaster } = scheduled;
  const { provider } = broadcaster;
  const scheduleFiles = new Map<string, string>();
  for (const { service } of scheduled.services) {
    const file = scheduleFileOf(service);
    if (file) scheduleFiles.set(file, service.id);
  }
  const serviceIds = new Set(scheduled.services.map(({ service }) => service.id));
  const byService = new Map<string, string[]>();
  const bySource = new Map<string, string[]>();
  const general: string[] = [];
  for (const problem of problems) {
    const text = formatProblem(problem);
    const key = sourceKey(problem.file, problem.line, problem.column);
    bySource.set(key, [...(bySource.get(key) ?? []), text]);
    const owner = problemOwner(problem, scheduleFiles, serviceIds);
    if (owner) byService.set(owner, [...(byService.get(owner) ?? []), text]);
    else general.push(text);
  }

  const site: EpgSite = {
    provider: { name: deriveNames(provider.name).medium, timeZone: provider.timeZone },
    now,
    clockFixed: input.clockFixed,
    today: scheduled.today,
    days: servedDates(scheduled.today).map((date) => ({
      date,
      label: `${WEEKDAYS[weekdayIndex(date)]} ${date.slice(8)}.${date.slice(5, 7)}.`,
      hours: dayBounds(provider.timeZone, date).hours,
    })),
    services: scheduled.services.map(({ service }) => {
      const names = deriveNames(service.name);
      return {
        id: service.id,
        timeZone: service.timeZone,
        names: { short: service.name.short, medium: names.medium, long: names.long },
        receiver: {
          short: service.name.short,
          medium: names.medium,
          logos: receiverLogos(service.logos),
        },
        problems: byService.get(service.id) ?? [],
      };
    }),
    problems: general,
    siPath: `/${OPEN_SI_PATH}`,
    devKey: input.devKey,
  };

  // Laid out once per model and kept: every day asked for reads the same lists.
  const programmes = new Map<string, ProgrammeInstance[]>();
  const programmesOf = (id: string, layOut: () => ProgrammeInstance[]) => {
    let list = programmes.get(id);
    if (!list) {
      list = layOut();
      programmes.set(id, list);
    }
    return list;
  };

  function day(date: PlainDate): EpgDay | undefined {
    if (!site.days.some((d) => d.date === date)) return undefined;
    const rows = scheduled.services.map(({ service, programmes: layOut }): EpgRow => {
      const zone = service.timeZone;
      const { start: dayStart, end: dayEnd, hours } = dayBounds(zone, date);
      const ticks = [];
      for (let at = dayStart; at < dayEnd; at += HOUR) ticks.push({ at, label: clock(zone, at) });
      const [startOffset, endOffset] = [offsetMinutes(zone, dayStart), offsetMinutes(zone, dayEnd)];
      const blocks: EpgBlock[] = [];
      let covered = dayStart;
      for (const p of programmesOf(service.id, layOut)) {
        if (p.end <= dayStart || p.start >= dayEnd) continue;
        if (p.start > covered) blocks.push(gap(zone, covered, p.start));
        blocks.push(programmeBlock(zone, p, dayStart, dayEnd, bySource));
        covered = p.end;
      }
      if (covered < dayEnd && blocks.length > 0) blocks.push(gap(zone, covered, dayEnd));
      return {
        serviceId: service.id,
        dayStart,
        dayEnd,
        hours,
        offsets:
          startOffset === endOffset
            ? utcOffset(startOffset)
            : `${utcOffset(startOffset)} → ${utcOffset(endOffset)}`,
        ticks,
        piPath: `/${programmeInformationPath(service.radiodns.fqdn, service.radiodns.serviceIdentifier, date)}`,
        blocks,
      };
    });
    return { date, rows };
  }

  return { site, day };
}

export type EpgModel = ReturnType<typeof epgModel>;

function gap(zone: string, start: number, end: number): EpgGap {
  return {
    type: "gap",
    start,
    end,
    time: `${clock(zone, start)}–${clock(zone, end)}`,
    duration: duration(end - start),
  };
}

function programmeBlock(
  zone: string,
  p: ProgrammeInstance,
  dayStart: number,
  dayEnd: number,
  bySource: Map<string, string[]>,
): EpgProgramme {
  const names = deriveNames(p.content.name);
  const image =
    p.content.images?.find((i) => i.size === "320x240")?.url ??
    p.content.images?.[0]?.url ??
    undefined;
  const rowDate = localDateOf(zone, dayStart);
  const { origin } = p.source;
  const source = sourceKey(origin.file, origin.line, origin.column);
  const at = (instant: number, date: PlainDate) =>
    `${clock(zone, instant)}${date === rowDate ? "" : ` (${date})`}`;
  return {
    type: "programme",
    start: Math.max(p.start, dayStart),
    end: Math.min(p.end, dayEnd),
    // A programme that ends at the row's midnight ends at 24:00, not at 00:00 of the next day.
    time: `${at(p.start, localDateOf(zone, p.start))}–${p.end === dayEnd ? "24:00" : at(p.end, localDateOf(zone, p.end))}`,
    duration: duration(p.end - p.start),
    fromPreviousDay: p.start < dayStart,
    intoNextDay: p.end > dayEnd,
    crid: p.crid,
    showId: p.showId,
    names: { short: names.short, medium: names.medium, long: names.long },
    description: p.content.description?.long ?? p.content.description?.short,
    image,
    website: p.content.website,
    genres: (p.content.genres ?? []).map(({ href, name }) => ({
      label: genreTermOf(href)?.label ?? name ?? href,
      href,
    })),
    airing: p.kind,
    source,
    problems: bySource.get(source) ?? [],
  };
}
