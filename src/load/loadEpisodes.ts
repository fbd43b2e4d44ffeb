import { isCalendarDate, type PlainDate } from "../time/plainDate.js";
import { loadProgrammeContent, toMinutes } from "./loadProgrammeContent.js";
import type { Episode, Show } from "./model/broadcaster.js";
import type { EpisodeInput } from "./schema/episodesSchema.js";
import {
  formatSourceRef,
  type InputProblem,
  NOT_LOCATED,
  type SourceRef,
} from "./text/inputProblem.js";
import type { YamlFile } from "./text/readYamlFile.js";

/** Episodes read so far for one service: by date, and each airing key with its first episode. */
export interface EpisodeIndex {
  byDate: Map<PlainDate, Episode[]>;
  keys: Map<string, Episode>;
}

export function emptyEpisodeIndex(): EpisodeIndex {
  return { byDate: new Map(), keys: new Map() };
}

/**
 * A list of episodes (a schedule's `episodes:` or an episodes file's) into `index`, with the
 * checks one file can make: a calendar date, a defined show, something that says which airing
 * (a show or a start), and no two episodes with the same date, start and show. Whether each
 * matches exactly one airing is for the schedule stage, which lays the airings out.
 */
export function loadEpisodes(
  inputs: readonly EpisodeInput[],
  {
    file,
    language,
    unknownShow,
  }: {
    file: YamlFile;
    /** The service's, when known: for the episodes' translations. */
    language: string | undefined;
    unknownShow: (show: string) => string | undefined;
  },
  index: EpisodeIndex,
  /**
   * Undefined when loading them to render: the check before reported what is wrong with them
   * (a service with errors is not rendered), so nothing is checked or located again.
   */
  problems: InputProblem[] | undefined,
): void {
  if (problems === undefined) {
    indexToRender(inputs, { file, language }, index);
    return;
  }
  inputs.forEach((input, i) => {
    const path = ["episodes", i];
    const { date, start, show, crid, ...fields } = input;
    if (!isCalendarDate(date)) {
      problems.push(file.error([...path, "date"], `"${date}" is not a calendar date`));
      return;
    }
    if (show !== undefined) {
      const unknown = unknownShow(show);
      if (unknown !== undefined) {
        problems.push(file.error([...path, "show"], unknown));
        return;
      }
    }
    if (show === undefined && start === undefined) {
      problems.push(
        file.error(path, `says neither show nor start: which airing of ${date} does it describe?`),
      );
      return;
    }
    const key = `${date} ${start ?? ""} ${show ?? ""}`;
    const earlier = index.keys.get(key);
    if (earlier) {
      problems.push(
        file.error(
          path,
          `describes the same airing as the episode at ${formatSourceRef(earlier.origin)}`,
        ),
      );
      return;
    }
    const content = loadProgrammeContent(
      fields,
      { file, language, what: "the episode" },
      path,
      problems,
    );
    const episode = new CheckedEpisode(
      { date, start: start === undefined ? undefined : toMinutes(start), show, crid, content },
      file,
      i,
    );
    index.keys.set(key, episode);
    const onDate = index.byDate.get(date);
    if (onDate) onDate.push(episode);
    else index.byDate.set(date, [episode]);
  });
}

function indexToRender(
  inputs: readonly EpisodeInput[],
  { file, language }: { file: YamlFile; language: string | undefined },
  index: EpisodeIndex,
): void {
  const unreported: InputProblem[] = [];
  inputs.forEach((input, i) => {
    const { date, start, show, crid, ...fields } = input;
    const content = loadProgrammeContent(
      fields,
      { file, language, what: "the episode" },
      ["episodes", i],
      unreported,
    );
    const episode: Episode = {
      date,
      start: start === undefined ? undefined : toMinutes(start),
      show,
      crid,
      content,
      origin: NOT_LOCATED,
    };
    const onDate = index.byDate.get(date);
    if (onDate) onDate.push(episode);
    else index.byDate.set(date, [episode]);
  });
}

/**
 * An episode whose origin is located the first time something reads it (a message): a
 * located-later origin made for each of them took 0.08 s of a 100-service nightly build.
 */
class CheckedEpisode implements Episode {
  readonly date: PlainDate;
  readonly start: number | undefined;
  readonly show: string | undefined;
  readonly crid: string | undefined;
  readonly content: Partial<Show>;
  readonly #file: YamlFile;
  readonly #index: number;
  #origin: SourceRef | undefined;

  constructor(fields: Omit<Episode, "origin">, file: YamlFile, index: number) {
    this.date = fields.date;
    this.start = fields.start;
    this.show = fields.show;
    this.crid = fields.crid;
    this.content = fields.content;
    this.#file = file;
    this.#index = index;
  }

  get origin(): SourceRef {
    this.#origin ??= this.#file.locateLater(["episodes", this.#index]);
    return this.#origin;
  }
}
