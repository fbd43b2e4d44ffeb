import type { OnDemand, ProgrammeEvent } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "../load/text/inputProblem.js";
import { formatTimeOfDay, localMinutesOf } from "../time/wallClock.js";
import type { EventOccurrence, ProgrammeInstance } from "./programmeInstance.js";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const NO_EVENTS: readonly EventOccurrence[] = [];

/**
 * The occurrences of `events` in a programme of `length` ms, in time order: each event at its
 * offset and, with `every`, again at each interval while it still ends within the programme.
 * `misfits` are the events whose first occurrence does not fit: the data says something false
 * about this airing.
 */
function placeEvents(
  events: readonly ProgrammeEvent[] | undefined,
  length: number,
): { occurrences: readonly EventOccurrence[]; misfits: readonly ProgrammeEvent[] } {
  if (events === undefined || events.length === 0) return { occurrences: NO_EVENTS, misfits: [] };
  const minutes = length / MINUTE_MS;
  const occurrences: EventOccurrence[] = [];
  const misfits: ProgrammeEvent[] = [];
  for (const event of events) {
    if (event.offset + event.duration > minutes) {
      misfits.push(event);
      continue;
    }
    // The loader refuses an interval shorter than the event (and so one of 0).
    const every = event.every ?? Number.POSITIVE_INFINITY;
    for (let offset = event.offset; offset + event.duration <= minutes; offset += every) {
      occurrences.push({ event, offset });
    }
  }
  occurrences.sort((a, b) => a.offset - b.offset);
  return { occurrences, misfits };
}

/** presentationTime of an airing's on-demand recording: UTC ms, `end` undefined for no end. */
export interface OnDemandWindow {
  start: number;
  end: number | undefined;
  duration: number;
}

/** From the airing's end unless dated; until a date, for some days, or indefinitely. */
export function onDemandWindow(
  onDemand: OnDemand,
  airing: { start: number; end: number },
): OnDemandWindow {
  const start = onDemand.from ?? airing.end;
  const end =
    onDemand.until ?? (onDemand.days === undefined ? undefined : start + onDemand.days * DAY_MS);
  const duration =
    onDemand.duration === undefined ? airing.end - airing.start : onDemand.duration * MINUTE_MS;
  return { start, end, duration };
}

/**
 * Places each programme's events in it, and reports (once per event or on-demand entry, at the
 * first airing concerned) an event that does not fit in an airing and an on-demand window that
 * ends before it starts; and warns of a recording offered before its airing starts (a dated
 * availableFrom that is earlier: a listener finds the replay of something not yet on air).
 */
export function placeProgrammeParts(programmes: ProgrammeInstance[], zone: string): InputProblem[] {
  const problems = new Map<string, InputProblem>();
  const report = (at: SourceRef, message: string, severity: "error" | "warning" = "error") => {
    const problem: InputProblem = { ...at, severity, message };
    const key = partProblemKey(problem);
    if (!problems.has(key)) problems.set(key, problem);
  };
  for (const programme of programmes) {
    const { content, start, end } = programme;
    const airing = `the airing of ${programme.billedDate} at ${formatTimeOfDay(localMinutesOf(zone, start))}`;
    if (content.events !== undefined) {
      const { occurrences, misfits } = placeEvents(content.events, end - start);
      programme.events = occurrences;
      for (const event of misfits) {
        report(
          event.origin,
          `does not fit in ${airing} (${formatLength(end - start)} long): it ends ${formatLength((event.offset + event.duration) * MINUTE_MS)} after the programme starts`,
        );
      }
    }
    if (content.onDemand !== undefined) {
      const window = onDemandWindow(content.onDemand, programme);
      if (window.end !== undefined && window.end <= window.start) {
        report(
          content.onDemand.origin,
          `ends before it starts for ${airing}: available from ${utcMinute(window.start)} until ${utcMinute(window.end)}`,
        );
      }
      if (content.onDemand.from !== undefined && content.onDemand.from < start) {
        report(
          content.onDemand.origin,
          `is available from ${utcMinute(content.onDemand.from)}, before ${airing} starts (${utcMinute(start)}): is availableFrom right?`,
          "warning",
        );
      }
    }
  }
  return [...problems.values()];
}

/**
 * What makes two of placeProgrammeParts' problems one: the same entry, the same severity. Only
 * the first airing concerned is named, so the problems of consecutive runs of programmes are
 * merged by it, the earlier run's first (mergePartProblems).
 */
function partProblemKey(problem: InputProblem): string {
  return `${problem.severity} ${formatSourceRef(problem)}`;
}

/** Problems of consecutive runs of programmes, each run's placeProgrammeParts, as one run's. */
export function mergePartProblems(runs: Iterable<readonly InputProblem[]>): InputProblem[] {
  const merged = new Map<string, InputProblem>();
  for (const run of runs) {
    for (const problem of run) {
      const key = partProblemKey(problem);
      if (!merged.has(key)) merged.set(key, problem);
    }
  }
  return [...merged.values()];
}

/** `2 h 30 min`, `45 min`. */
function formatLength(ms: number): string {
  const minutes = Math.round(ms / MINUTE_MS);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [hours ? `${hours} h` : "", rest || !hours ? `${rest} min` : ""].filter(Boolean).join(" ");
}

/** `2026-11-23T09:00Z`. */
function utcMinute(instant: number): string {
  return `${new Date(instant).toISOString().slice(0, 16)}Z`;
}
