import type { FeedProgramme, FeedProgrammeInformation } from "./feedModel.js";
import type { ImportNote } from "./importNote.js";
import {
  DEFAULT_LANGUAGE,
  originOf,
  readGenres,
  readKeywords,
  readLinks,
  readMediaDescriptions,
  readNames,
} from "./readSpiElements.js";
import { parseDuration, parseTimePoint } from "./spiTimes.js";
import { type XmlElement, XmlSyntaxError } from "./xmlTree.js";

/**
 * A PI document (`epg` > `schedule`): one airing per `time` of each programme. What cannot be
 * read as an airing (a relative time, a time without a zone) is noted in `notes`.
 */
export function readProgrammeInformation(
  root: XmlElement,
  notes: ImportNote[],
): FeedProgrammeInformation {
  if (root.name !== "epg") {
    throw new XmlSyntaxError(`<${root.name}> is not a PI document (<epg>)`, root.position);
  }
  root.attribute("xml:lang");
  const schedules = root.children("schedule");
  const first = schedules[0];
  const programmes: FeedProgramme[] = [];
  let scope: FeedProgrammeInformation["scope"];
  for (const schedule of schedules) {
    schedule.attribute("creationTime");
    schedule.attribute("version");
    schedule.attribute("originator");
    const scopeElement = schedule.child("scope");
    if (scopeElement) {
      const start = parseTimePoint(scopeElement.attribute("startTime") ?? "");
      const stop = parseTimePoint(scopeElement.attribute("stopTime") ?? "");
      if (start !== undefined && stop !== undefined) scope = { start, stop };
    }
    for (const programme of schedule.children("programme")) {
      programmes.push(...readProgramme(programme, notes));
    }
  }
  return {
    source: root.position.source,
    originator: first?.attribute("originator"),
    language: first?.language() ?? root.language() ?? DEFAULT_LANGUAGE,
    scope,
    programmes,
  };
}

function readProgramme(element: XmlElement, notes: ImportNote[]): FeedProgramme[] {
  const origin = originOf(element.position);
  const crid = element.attribute("id")?.trim() ?? "";
  const shortIdText = element.attribute("shortId");
  element.attribute("version");
  const names = readNames(element);
  const { descriptions, images } = readMediaDescriptions(element);
  const content = {
    crid,
    shortId: shortIdText === undefined ? undefined : Number(shortIdText),
    names,
    descriptions,
    images,
    genres: readGenres(element),
    keywords: readKeywords(element),
    memberOf: element.children("memberOf").flatMap((m) => {
      m.attribute("shortId");
      const id = m.attribute("id");
      return id === undefined ? [] : [id.trim()];
    }),
    links: readLinks(element),
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
      const start = parseTimePoint(time.attribute("time") ?? "");
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
        (actualTime !== undefined && parseTimePoint(actualTime) !== start) ||
        (actualDuration !== undefined && parseDuration(actualDuration) !== duration)
      ) {
        notes.push({
          origin: timeOrigin,
          message: "actualTime/actualDuration differ from the billed time: the billed time is kept",
        });
      }
      airings.push({ ...content, start, end: start + duration, origin });
    }
    // Relative times and location bearers stay unread, so the report lists them.
  }
  if (airings.length === 0 && element.children("location").length === 0) {
    notes.push({ origin, message: `programme ${crid} has no <location> with a time: left out` });
  }
  return airings;
}
