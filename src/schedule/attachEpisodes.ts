import type { Episode, EpisodesByDate } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem } from "../load/text/inputProblem.js";
import type { PlainDate } from "../time/plainDate.js";
import { formatTimeOfDay, localMinutesOf } from "../time/wallClock.js";
import type { ProgrammeInstance } from "./programmeInstance.js";

/**
 * Gives each airing its episode, if one describes it: the episode's fields replace the show's
 * (`content`), its CRID the derived one. Every episode dated within [from, to] must match
 * exactly one airing (its date, and its show and start where it gives them), and no airing may
 * have two; each mistake is a problem at the episode. Episodes of other dates are not looked at
 * here (files of past weeks stay around; the schedule stage checks future ones on their own).
 * The problems come by date, in date order: what one date's episodes find depends on that
 * date's airings only, so a day-by-day check can keep a date's (schedule/rollCheck.ts).
 */
export function attachEpisodes(
  programmes: ProgrammeInstance[],
  episodes: EpisodesByDate,
  zone: string,
  from: PlainDate,
  to: PlainDate,
): Map<PlainDate, InputProblem[]> {
  const byDate = new Map<PlainDate, InputProblem[]>();
  if (episodes.size === 0) return byDate;
  const matches = new Map<Episode, number[]>();
  programmes.forEach((programme, index) => {
    const candidates = episodes.get(programme.billedDate);
    if (candidates === undefined) return;
    const start = localMinutesOf(zone, programme.start);
    for (const episode of candidates) {
      if (episode.show !== undefined && episode.show !== programme.showId) continue;
      if (episode.start !== undefined && episode.start !== start) continue;
      const found = matches.get(episode);
      if (found) found.push(index);
      else matches.set(episode, [index]);
    }
  });

  let problems: InputProblem[] = [];
  const problem = (episode: Episode, message: string, field = "") =>
    problems.push({
      ...episode.origin,
      field: field ? `${episode.origin.field}.${field}` : episode.origin.field,
      severity: "error",
      message,
    });
  const describedBy = new Map<number, Episode>();
  const dates = [...episodes.keys()].filter((date) => date >= from && date <= to).sort();
  for (const date of dates) {
    problems = [];
    for (const episode of episodes.get(date) ?? []) {
      const found = matches.get(episode) ?? [];
      if (found.length !== 1) {
        const airings = found.length === 0 ? airingsOn(programmes, episode) : found;
        problem(episode, matchMessage(episode, found.length, airings, programmes, zone));
        continue;
      }
      const index = found[0] as number;
      const earlier = describedBy.get(index);
      if (earlier) {
        problem(
          episode,
          `describes the same airing (${airingName(programmes[index] as ProgrammeInstance, zone)}) as the episode at ${formatSourceRef(earlier.origin)}`,
        );
        continue;
      }
      describedBy.set(index, episode);
      const programme = programmes[index] as ProgrammeInstance;
      if (episode.crid !== undefined && programme.kind === "special" && !programme.derivedCrid) {
        problem(
          episode,
          `gives a CRID, and so does the special at ${formatSourceRef(programme.source.origin)}: give one`,
          "crid",
        );
        continue;
      }
      const stale = translatedShowNames(programme, episode);
      if (stale.length > 0) {
        problems.push({
          ...episode.origin,
          field: `${episode.origin.field}.name`,
          severity: "warning",
          message: `replaces the show's name, but its ${stale.join(", ")} translation keeps the show's (${programme.show.translations?.[stale[0] as string]?.name?.long}): a receiver in that language shows it for this airing; give translations with a name`,
        });
      }
      programmes[index] = {
        ...programme,
        content: { ...programme.show, ...episode.content },
        episode,
        crid: episode.crid ?? programme.crid,
        derivedCrid: episode.crid === undefined ? programme.derivedCrid : false,
      };
    }
    if (problems.length > 0) byDate.set(date, problems);
  }
  return byDate;
}

/**
 * The languages in which the show has a translated name that the episode, naming the airing
 * anew, leaves in place: its translations are the show's, or have no name in that language.
 */
function translatedShowNames(programme: ProgrammeInstance, episode: Episode): string[] {
  if (episode.content.name === undefined) return [];
  const translations = episode.content.translations ?? programme.show.translations ?? {};
  return Object.entries(programme.show.translations ?? {})
    .filter(
      ([language, shows]) =>
        shows.name !== undefined && translations[language]?.name === shows.name,
    )
    .map(([language]) => language);
}

/** The indexes of the airings on the episode's date (of its show, if it names one). */
function airingsOn(programmes: ProgrammeInstance[], episode: Episode): number[] {
  const found: number[] = [];
  programmes.forEach((programme, index) => {
    if (programme.billedDate !== episode.date) return;
    if (episode.show !== undefined && programme.showId !== episode.show) return;
    found.push(index);
  });
  return found;
}

const LISTED_AIRINGS = 6;

function matchMessage(
  episode: Episode,
  count: number,
  airings: number[],
  programmes: ProgrammeInstance[],
  zone: string,
): string {
  const listed = airings
    .slice(0, LISTED_AIRINGS)
    .map((index) => airingName(programmes[index] as ProgrammeInstance, zone));
  const more =
    airings.length > LISTED_AIRINGS ? `, and ${airings.length - LISTED_AIRINGS} more` : "";
  const list = `${listed.join(", ")}${more}`;
  if (count > 1) {
    return `matches ${count} airings on ${episode.date} (${list}): give start to say which`;
  }
  const which = episode.show === undefined ? "" : ` of ${episode.show}`;
  const at = episode.start === undefined ? "" : ` at ${formatTimeOfDay(episode.start)}`;
  if (airings.length === 0)
    return `matches no airing${which} on ${episode.date}${at}: there is none that day`;
  return `matches no airing${which} on ${episode.date}${at}; that day has ${list}`;
}

function airingName(programme: ProgrammeInstance, zone: string): string {
  return `${programme.showId} at ${formatTimeOfDay(localMinutesOf(zone, programme.start))}`;
}
