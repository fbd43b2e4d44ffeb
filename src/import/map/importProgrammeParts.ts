import type { OnDemandInput, ProgrammeEventInput } from "../../load/schema/showSchema.js";
import { programmeEventCrid } from "../../schedule/programmeCrid.js";
import type { ImportNote } from "../importNote.js";
import type { FeedEvent, FeedOnDemand, FeedProgramme } from "../read/feedModel.js";
import { importLinks, importTexts } from "./feedTexts.js";
import { importGenre, importImage } from "./importProgrammeMedia.js";

/**
 * A programme's segments (programmeEvent) and its on-demand recording, as a show or episode
 * holds them: events relative to the programme's start, a run of equal events at a steady
 * interval as one event with `every`; on-demand relative to the airing where it can be.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** `01:30` for 90 minutes. */
function span(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

function minutesOf(ms: number, what: string, origin: string, notes: ImportNote[]): number {
  if (ms % MINUTE_MS !== 0) {
    notes.push({ origin, message: `${what} is not a whole number of minutes: cut to the minute` });
  }
  return Math.floor(ms / MINUTE_MS);
}

export function importEvents(
  airing: FeedProgramme,
  language: string,
  notes: ImportNote[],
): ProgrammeEventInput[] {
  const length = Math.floor((airing.end - airing.start) / MINUTE_MS);
  const placed = [...airing.events].sort((a, b) => a.offset - b.offset);
  const occurrences: { offset: number; duration: number; content: EventContent }[] = [];
  const atOffset = new Map<number, number>();
  placed.forEach((event) => {
    const nth = (atOffset.get(event.offset) ?? 0) + 1;
    atOffset.set(event.offset, nth);
    const minutes = Math.floor(event.offset / MINUTE_MS);
    if (event.id !== programmeEventCrid(airing.crid, minutes, nth)) {
      notes.push({
        origin: event.origin,
        message:
          "programmeEvent ids are not kept: the build names each event by its programme's CRID and its offset (<programme CRID>/90m)",
      });
    }
    if (event.shortId !== undefined && event.shortId !== 0) {
      notes.push({
        origin: event.origin,
        message: "programmeEvent shortIds are not kept: the build writes 0",
      });
    }
    const content = eventContent(event, language, notes);
    if (!content) return;
    occurrences.push({
      offset: minutesOf(event.offset, "a programmeEvent's time", event.origin, notes),
      duration: minutesOf(event.duration, "a programmeEvent's duration", event.origin, notes),
      content,
    });
  });

  // Runs of equal events at a steady interval that go on as long as they fit: one with `every`.
  const entries: { offset: number; entry: ProgrammeEventInput }[] = [];
  const byContent = new Map<
    string,
    { offset: number; duration: number; content: EventContent }[]
  >();
  for (const occurrence of occurrences) {
    const key = `${occurrence.duration} ${JSON.stringify(occurrence.content)}`;
    byContent.set(key, [...(byContent.get(key) ?? []), occurrence]);
  }
  for (const run of byContent.values()) {
    const [first, second] = run;
    if (!first) continue;
    const every = second ? second.offset - first.offset : 0;
    const last = run[run.length - 1] ?? first;
    const steady =
      run.length >= 2 &&
      every >= first.duration &&
      run.every((o, i) => o.offset === first.offset + i * every) &&
      last.offset + every + first.duration > length;
    const list = steady ? [first] : run;
    for (const occurrence of list) {
      const { name, ...rest } = occurrence.content;
      entries.push({
        offset: occurrence.offset,
        entry: {
          name,
          offset: span(occurrence.offset),
          duration: span(occurrence.duration),
          ...(steady ? { every: span(every) } : {}),
          ...rest,
        },
      });
    }
  }
  return entries.sort((a, b) => a.offset - b.offset).map((e) => e.entry);
}

type EventContent = Omit<ProgrammeEventInput, "offset" | "duration" | "every">;

function eventContent(
  event: FeedEvent,
  language: string,
  notes: ImportNote[],
): EventContent | undefined {
  const texts = importTexts(event, language, event.origin, notes);
  if (!texts.name) {
    notes.push({ origin: event.origin, message: "a programmeEvent without a name is left out" });
    return undefined;
  }
  const images = event.images.flatMap((image) => importImage(image, notes));
  const genres = event.genres.flatMap((genre) => importGenre(genre, language, event.origin, notes));
  const links = importLinks(texts.links, notes);
  const { description, keywords, translations } = texts;
  return {
    name: texts.name,
    ...(description ? { description } : {}),
    ...(images.length > 0 ? { images } : {}),
    ...(genres.length > 0 ? { genres } : {}),
    ...(keywords.length > 0 ? { keywords } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
  };
}

/**
 * The events a programme of `minutes` publishes for these entries, as the build places them:
 * each at its offset and, with `every`, again while it ends within the programme. Undefined
 * when an entry's first occurrence does not fit (the build refuses that).
 */
export function placedEvents(
  entries: readonly ProgrammeEventInput[] | undefined,
  minutes: number,
): string[] | undefined {
  const placed: { offset: number; key: string }[] = [];
  for (const { offset, duration, every, ...content } of entries ?? []) {
    const start = clockMinutes(offset);
    const length = clockMinutes(duration);
    if (start + length > minutes) return undefined;
    const step = every === undefined ? Number.POSITIVE_INFINITY : clockMinutes(every);
    for (let at = start; at + length <= minutes; at += step) {
      placed.push({ offset: at, key: `${at} ${length} ${JSON.stringify(content)}` });
    }
  }
  return placed.sort((a, b) => a.offset - b.offset).map((p) => p.key);
}

function clockMinutes(text: string): number {
  return Number(text.slice(0, -3)) * 60 + Number(text.slice(-2));
}

/** The airing's on-demand recording (the data holds one), relative to the airing where it can be. */
export function importOnDemand(
  airing: FeedProgramme,
  notes: ImportNote[],
): OnDemandInput | undefined {
  const [onDemand, ...more] = airing.onDemand;
  for (const extra of more) {
    notes.push({
      origin: extra.origin,
      message: "a second onDemand is not imported: a programme has one (with several files)",
    });
  }
  if (!onDemand) return undefined;
  const files = onDemandFiles(onDemand, notes);
  if (files.length === 0) {
    notes.push({
      origin: onDemand.origin,
      message: "an onDemand without an http(s) file with its mimeValue is left out",
    });
    return undefined;
  }
  const start = onDemand.start ?? airing.end;
  if (onDemand.start === undefined) {
    notes.push({
      origin: onDemand.origin,
      message: "an onDemand without a start: it is published as available from the airing's end",
    });
  }
  const window: Partial<OnDemandInput> = {};
  if (start !== airing.end) window.availableFrom = instantText(start);
  if (onDemand.end !== undefined) {
    const days = (onDemand.end - start) / DAY_MS;
    if (Number.isInteger(days) && days >= 1 && days <= 3650) window.availableDays = days;
    else window.availableUntil = instantText(onDemand.end);
  }
  const length = airing.end - airing.start;
  if (onDemand.duration !== length) {
    window.duration = span(
      minutesOf(onDemand.duration, "an onDemand's duration", onDemand.origin, notes),
    );
  }
  return { files, ...window };
}

function onDemandFiles(onDemand: FeedOnDemand, notes: ImportNote[]): OnDemandInput["files"] {
  return onDemand.files.flatMap((file): OnDemandInput["files"] => {
    if (!/^https?:\/\//i.test(file.id) || file.mimeValue === undefined) {
      notes.push({
        origin: file.origin,
        message: `on-demand bearer ${file.id} is not imported: a file is an http(s) URL with its mimeValue`,
      });
      return [];
    }
    if (file.offset !== undefined) {
      notes.push({ origin: file.origin, message: "an on-demand bearer's offset is not imported" });
    }
    return [
      {
        url: file.id,
        mimeValue: file.mimeValue,
        ...(file.bitrate !== undefined ? { bitrate: file.bitrate } : {}),
        ...(file.cost !== undefined && file.cost !== 100 ? { cost: file.cost } : {}),
      },
    ];
  });
}

/** `2026-11-23T08:00:00Z`. */
function instantText(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}
