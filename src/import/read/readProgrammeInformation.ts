import type { ImportNote } from "../importNote.js";
import type {
  FeedEvent,
  FeedOnDemand,
  FeedProgramme,
  FeedProgrammeInformation,
} from "./feedModel.js";
import { dabIdOfEpg1 } from "./readServiceInformation.js";
import {
  DEFAULT_LANGUAGE,
  integerAttribute,
  originOf,
  readGenres,
  readKeywords,
  readLinks,
  readMediaDescriptions,
  readNames,
} from "./readSpiElements.js";
import { parseDuration, parseTimePoint, parseWallTime } from "./spiTimes.js";
import { type XmlElement, type XmlPosition, XmlSyntaxError } from "./xmlTree.js";

/**
 * A PI document (`epg` > `schedule`): one airing per `time` of each programme. What cannot be
 * read as an airing (a relative time, a time without a zone) is noted in `notes`.
 */
export function readProgrammeInformation(
  root: XmlElement,
  timeZone: string,
  notes: ImportNote[],
): FeedProgrammeInformation {
  // One message for every zone-less time, so the report says it once, with how often.
  const timePoint: TimePoint = (text, at) => {
    const zoned = parseTimePoint(text ?? "");
    if (zoned !== undefined || text === undefined) return zoned;
    const wall = parseWallTime(text, timeZone);
    if (wall !== undefined) {
      notes.push({
        origin: originOf(at),
        message: `a time without a zone is read as a wall time in ${timeZone} (--time-zone)`,
      });
    }
    return wall;
  };
  if (root.name !== "epg") {
    throw new XmlSyntaxError(`<${root.name}> is not a PI document (<epg>)`, root.position);
  }
  root.attribute("xml:lang");
  const schedules = root.children("schedule");
  const first = schedules[0];
  const programmes: FeedProgramme[] = [];
  let scope: FeedProgrammeInformation["scope"];
  const serviceScopes: string[] = [];
  for (const schedule of schedules) {
    schedule.attribute("creationTime");
    schedule.attribute("version");
    schedule.attribute("originator");
    const scopeElement = schedule.child("scope");
    if (scopeElement) {
      const start = timePoint(scopeElement.attribute("startTime"), scopeElement.position);
      const stop = timePoint(scopeElement.attribute("stopTime"), scopeElement.position);
      if (start !== undefined && stop !== undefined) scope = { start, stop };
      for (const serviceScope of scopeElement.children("serviceScope")) {
        const id = serviceScope.attribute("id")?.trim();
        if (id) serviceScopes.push(dabIdOfEpg1(id));
      }
    }
    for (const programme of schedule.children("programme")) {
      programmes.push(...readProgramme(programme, timePoint, notes));
    }
  }
  return {
    source: root.position.source,
    originator: first?.attribute("originator"),
    language: first?.language() ?? root.language() ?? DEFAULT_LANGUAGE,
    scope,
    serviceScopes,
    programmes,
  };
}

/** An xs:dateTime as UTC ms: zoned, or a wall time in --time-zone (noted). */
type TimePoint = (text: string | undefined, at: XmlPosition) => number | undefined;

function readProgramme(
  element: XmlElement,
  timePoint: TimePoint,
  notes: ImportNote[],
): FeedProgramme[] {
  const origin = originOf(element.position);
  const crid = element.attribute("id")?.trim() ?? "";
  const shortIdText = element.attribute("shortId");
  element.attribute("version");
  const names = readNames(element);
  const { descriptions, images } = readMediaDescriptions(element);
  const memberOf = element.children("memberOf");
  const content = {
    crid,
    shortId: shortIdText === undefined ? undefined : Number(shortIdText),
    names,
    descriptions,
    images,
    genres: readGenres(element),
    keywords: readKeywords(element),
    // EPG 1.x names the group's CRID `crid`.
    memberOf: memberOf.flatMap((m) => {
      const id = m.attribute("id") ?? m.attribute("crid");
      return id === undefined ? [] : [id.trim()];
    }),
    groupShortId: groupShortIdOf(memberOf[0]),
    links: readLinks(element),
    onDemand: element.children("onDemand").flatMap((o) => readOnDemand(o, timePoint, notes)),
    origin,
  };
  for (const attribute of ["recommendation", "broadcast"] as const) {
    const value = element.attribute(attribute);
    const byDefault = attribute === "recommendation" ? "no" : "on-air";
    if (value !== undefined && value !== byDefault) {
      notes.push({ origin, message: `${attribute}="${value}" is not published by spi-static` });
    }
  }
  const airings: FeedProgramme[] = [];
  for (const location of element.children("location")) {
    for (const time of location.children("time")) {
      const timeOrigin = originOf(time.position);
      const start = timePoint(time.attribute("time"), time.position);
      const duration = parseDuration(time.attribute("duration") ?? "");
      if (start === undefined || duration === undefined) {
        notes.push({
          origin: timeOrigin,
          message: `a <time> without a zoned time and a duration (time="${time.attribute("time") ?? ""}", duration="${time.attribute("duration") ?? ""}") is left out`,
        });
        continue;
      }
      const actualTime = time.attribute("actualTime");
      const actualDuration = time.attribute("actualDuration");
      if (
        (actualTime !== undefined && timePoint(actualTime, time.position) !== start) ||
        (actualDuration !== undefined && parseDuration(actualDuration) !== duration)
      ) {
        notes.push({
          origin: timeOrigin,
          message: "actualTime/actualDuration differ from the billed time: the billed time is kept",
        });
      }
      const events = element
        .children("programmeEvent")
        .flatMap((event) => readEvent(event, { start, end: start + duration }, timePoint, notes));
      airings.push({ ...content, events, start, end: start + duration, origin });
    }
    // Relative times and location bearers stay unread, so the report lists them.
  }
  if (airings.length === 0 && element.children("location").length === 0) {
    notes.push({ origin, message: `programme ${crid} has no <location> with a time: left out` });
  }
  return airings;
}

/**
 * A programmeEvent, its time made relative to its airing's start. One timed outside the airing
 * (a time on another bearer, or of another airing of the programme) is left out with a note.
 */
function readEvent(
  element: XmlElement,
  airing: { start: number; end: number },
  timePoint: TimePoint,
  notes: ImportNote[],
): FeedEvent[] {
  const origin = originOf(element.position);
  element.attribute("version");
  const shortIdText = element.attribute("shortId");
  const names = readNames(element);
  const { descriptions, images } = readMediaDescriptions(element);
  const texts = {
    id: element.attribute("id")?.trim() ?? "",
    shortId: shortIdText === undefined ? undefined : Number(shortIdText),
    names,
    descriptions,
    images,
    genres: readGenres(element),
    keywords: readKeywords(element),
    links: readLinks(element),
    origin,
  };
  const location = element.child("location");
  const relative = location?.child("relativeTime");
  const absolute = location?.child("time");
  let offset: number | undefined;
  let duration: number | undefined;
  if (relative) {
    offset = parseDuration(relative.attribute("time") ?? "");
    duration = parseDuration(relative.attribute("duration") ?? "");
  } else if (absolute) {
    const at = timePoint(absolute.attribute("time"), absolute.position);
    offset = at === undefined ? undefined : at - airing.start;
    duration = parseDuration(absolute.attribute("duration") ?? "");
    if (at !== undefined && (at < airing.start || at >= airing.end)) {
      notes.push({
        origin,
        message: `a programmeEvent at ${absolute.attribute("time")?.trim()} is outside its airing (${new Date(airing.start).toISOString()} to ${new Date(airing.end).toISOString()}): timed for another bearer or airing, left out`,
      });
      return [];
    }
  }
  if (
    offset === undefined ||
    duration === undefined ||
    offset < 0 ||
    offset >= airing.end - airing.start
  ) {
    notes.push({
      origin,
      message: "a programmeEvent without a time within its programme and a duration is left out",
    });
    return [];
  }
  return [{ ...texts, offset, duration }];
}

/** An onDemand: its presentation window and a bearer per file. */
function readOnDemand(
  element: XmlElement,
  timePoint: TimePoint,
  notes: ImportNote[],
): FeedOnDemand[] {
  const origin = originOf(element.position);
  const presentation = element.child("presentationTime");
  const duration = parseDuration(presentation?.attribute("duration") ?? "");
  if (duration === undefined) {
    notes.push({ origin, message: "an onDemand without a presentationTime duration is left out" });
    return [];
  }
  const start = presentation?.attribute("start");
  const end = presentation?.attribute("end");
  return [
    {
      start: timePoint(start, presentation?.position ?? element.position),
      end: timePoint(end, presentation?.position ?? element.position),
      duration,
      files: element.children("bearer").flatMap((bearer) => {
        const id = bearer.attribute("id");
        if (id === undefined) return [];
        return [
          {
            id: id.trim(),
            cost: integerAttribute(bearer, "cost"),
            offset: integerAttribute(bearer, "offset"),
            mimeValue: bearer.attribute("mimeValue"),
            bitrate: integerAttribute(bearer, "bitrate"),
            origin: originOf(bearer.position),
          },
        ];
      }),
      origin,
    },
  ];
}

/** A memberOf's shortId (24 bits, TS 102 818 §5.10); 0 and what is no such number stay unread. */
function groupShortIdOf(memberOf: XmlElement | undefined): number | undefined {
  const value = memberOf?.peekAttribute("shortId")?.trim();
  if (value === "0") memberOf?.attribute("shortId");
  if (value === undefined || !/^\d{1,8}$/.test(value)) return undefined;
  const shortId = Number(value);
  if (shortId < 1 || shortId > 16_777_215) return undefined;
  memberOf?.attribute("shortId");
  return shortId;
}
