import { isCalendarDate, type Weekday, weekdayNames } from "../time/plainDate.js";
import { findDeadAir } from "./checks/findDeadAir.js";
import { findLongProgrammes } from "./checks/findLongProgrammes.js";
import { emptyEpisodeIndex, loadEpisodes } from "./loadEpisodes.js";
import { loadProgrammeContent, toMinutes } from "./loadProgrammeContent.js";
import type {
  DatedDay,
  EpisodeListDates,
  EpisodeSource,
  Schedule,
  Show,
  Slot,
  SpecialSlot,
} from "./model/broadcaster.js";
import type { EpisodesFileInput } from "./schema/episodesSchema.js";
import type { DatedEntry, GridSlotInput, ScheduleInput } from "./schema/scheduleSchema.js";
import { didYouMean } from "./text/closestName.js";
import type { InputProblem, SourceRef } from "./text/inputProblem.js";
import type { YamlFile } from "./text/readYamlFile.js";

/** An episodes file as the load stage keeps it: validated, its value read again when asked. */
export interface EpisodeList {
  file: YamlFile;
  input(): { episodes?: EpisodesFileInput["episodes"] | undefined };
}

/**
 * A schedule file's input → the Schedule model, with the checks that need more than one field:
 * show references, weekdays claimed twice, impossible dates and slots, shows never scheduled,
 * days without a grid and dead air. Overlaps are found when the schedule stage lays it out, and
 * the episodes' own checks whenever they are loaded (Schedule.episodes).
 */
export function loadSchedule(
  input: ScheduleInput,
  file: YamlFile,
  problems: InputProblem[],
  episodeFiles: readonly EpisodeList[] = [],
  /** The service's: its shows' own texts are in it, their translations in others. */
  language?: string,
): Schedule {
  const slots = slotReader(input, file, problems);
  const week = loadWeek(input, file, slots, problems);
  const dates = loadDatedDays(input, week, file, slots, problems);
  const shows = loadShows(input, slots.usedShows, file, language, problems);
  // Only the schedule's own episodes are held, not its input: the model keeps its shows.
  const own = { episodes: input.episodes };
  const lists: readonly EpisodeList[] = [{ file, input: () => own }, ...episodeFiles];
  const episodes: EpisodeSource = {
    load(found: InputProblem[] | undefined) {
      const index = emptyEpisodeIndex();
      for (const list of lists) {
        const source = { file: list.file, language, unknownShow: slots.unknownShow };
        loadEpisodes(list.input().episodes ?? [], source, index, found);
      }
      return index.byDate;
    },
    loadLists(found: InputProblem[], pick: (list: number) => boolean) {
      const index = emptyEpisodeIndex();
      const listDates: EpisodeListDates[] = [];
      lists.forEach((list, i) => {
        if (!pick(i)) {
          listDates.push(null);
          return;
        }
        const source = { file: list.file, language, unknownShow: slots.unknownShow };
        const inputs = list.input().episodes ?? [];
        loadEpisodes(inputs, source, index, found);
        // Each date as written: one that is no calendar date is an error, and a service with
        // errors is never checked day by day.
        let first: string | undefined;
        let last: string | undefined;
        for (const { date } of inputs) {
          if (first === undefined || date < first) first = date;
          if (last === undefined || date > last) last = date;
        }
        listDates.push(first === undefined || last === undefined ? null : [first, last]);
      });
      return { episodes: index.byDate, listDates };
    },
  };
  const schedule = { shows, week, dates, episodes };
  for (const problem of findDeadAir(schedule)) problems.push(problem);
  for (const problem of findLongProgrammes(schedule)) problems.push(problem);
  return schedule;
}

/** Reads slots and specials, checking each one's show and length, and notes the shows used. */
interface SlotReader {
  slots(inputs: GridSlotInput[], path: PropertyKey[]): Slot[];
  special(input: SpecialInput, path: PropertyKey[]): SpecialSlot;
  usedShows: Set<string>;
  /** Why `show` cannot be used (it is not defined), or undefined. */
  unknownShow(show: string): string | undefined;
}

type SpecialInput = NonNullable<DatedEntry["specials"]>[number];

const MAX_GUESSED_SHOWS = 20;

function slotReader(input: ScheduleInput, file: YamlFile, problems: InputProblem[]): SlotReader {
  const showIds = Object.keys(input.shows);
  // Names, not the input: the model keeps `unknownShow` for its episodes' checks.
  const knownShows = new Set(showIds);
  const usedShows = new Set<string>();
  // A guess compares the name with every show: made for the first few unknown names only, so a
  // file of thousands of unknown shows is not checked in quadratic time.
  const guesses = new Map<string, string>();
  const guess = (show: string) => {
    let hint = guesses.get(show);
    if (hint === undefined) {
      hint = guesses.size < MAX_GUESSED_SHOWS ? didYouMean(show, showIds) : "";
      guesses.set(show, hint);
    }
    return hint;
  };
  const unknownShow = (show: string) =>
    knownShows.has(show) ? undefined : `show "${show}" is not defined under shows${guess(show)}`;
  const useShow = (show: string, path: PropertyKey[]) => {
    usedShows.add(show);
    const unknown = unknownShow(show);
    if (unknown !== undefined) problems.push(file.error(path, unknown));
  };
  const checkLength = (start: string, end: string | undefined, path: PropertyKey[]) => {
    if (end === start) {
      problems.push(file.error([...path, "end"], `ends when it starts (${start})`));
    }
  };
  return {
    usedShows,
    unknownShow,
    slots: (inputs, base) =>
      inputs.map((slot, i) => {
        useShow(slot.show, [...base, i, "show"]);
        checkLength(slot.start, slot.end, [...base, i]);
        const end = slot.end === undefined ? undefined : toMinutes(slot.end);
        return new GridSlot(toMinutes(slot.start), end, slot.show, file, base, i);
      }),
    special: (special, path) => {
      useShow(special.show, [...path, "show"]);
      checkLength(special.start, special.end, path);
      return {
        start: toMinutes(special.start),
        end: toMinutes(special.end),
        show: special.show,
        crid: special.crid,
        origin: file.locateLater(path),
      };
    },
  };
}

/**
 * A slot of the grid or of a dated day. Its origin is made the first time a message reads it
 * (the schedule stage keeps the slot, not its origin, in each programme it lays out): the model
 * keeps every slot, and an origin made at once took 15 MB of a 1000-service build's heap.
 */
class GridSlot implements Slot {
  readonly #file: YamlFile;
  /** Where the slot's list is: shared by its slots. */
  readonly #list: readonly PropertyKey[];
  readonly #index: number;
  #origin: SourceRef | undefined;

  constructor(
    readonly start: number,
    readonly end: number | undefined,
    readonly show: string,
    file: YamlFile,
    list: readonly PropertyKey[],
    index: number,
  ) {
    this.#file = file;
    this.#list = list;
    this.#index = index;
  }

  get origin(): SourceRef {
    this.#origin ??= this.#file.locateLater([...this.#list, this.#index]);
    return this.#origin;
  }
}

/** The weekly grid: each weekday's slots, a weekday claimed by two grid entries reported. */
function loadWeek(
  input: ScheduleInput,
  file: YamlFile,
  reader: SlotReader,
  problems: InputProblem[],
): Record<Weekday, Slot[]> {
  const week = Object.fromEntries(weekdayNames.map((d) => [d, [] as Slot[]])) as Record<
    Weekday,
    Slot[]
  >;
  const claimedBy = new Map<Weekday, number>();
  input.grid.forEach((block, b) => {
    const slots = reader.slots(block.slots, ["grid", b, "slots"]);
    for (const day of expandWeekdaySet(block.days)) {
      const other = claimedBy.get(day);
      if (other !== undefined) {
        problems.push(
          file.error(["grid", b, "days"], `${day} is already scheduled by grid[${other}]`),
        );
        continue;
      }
      claimedBy.set(day, b);
      week[day] = slots;
    }
  });
  const unscheduled = weekdayNames.filter((day) => !claimedBy.has(day));
  if (claimedBy.size === 0) {
    problems.push(file.warning(["grid"], "is empty: nothing is on air except on the dated days"));
  } else if (unscheduled.length > 0) {
    problems.push(
      file.warning(
        ["grid"],
        `has no slots for ${unscheduled.join(", ")}: the slot before runs on until the next one`,
      ),
    );
  }
  return week;
}

/** The dated days: a day's own slots or another weekday's grid, and the specials laid over. */
function loadDatedDays(
  input: ScheduleInput,
  week: Record<Weekday, Slot[]>,
  file: YamlFile,
  reader: SlotReader,
  problems: InputProblem[],
): Map<string, DatedDay> {
  const dates = new Map<string, DatedDay>();
  (input.dates ?? []).forEach((entry, e) => {
    const base = ["dates", e];
    if (!isCalendarDate(entry.date)) {
      problems.push(file.error([...base, "date"], `"${entry.date}" is not a calendar date`));
      return;
    }
    if (dates.has(entry.date)) {
      problems.push(file.error([...base, "date"], `${entry.date} is already listed under dates`));
      return;
    }
    if (entry.like && entry.slots) {
      problems.push(file.error([...base, "like"], "give either like or slots, not both"));
    }
    if (!entry.like && !entry.slots && !entry.specials) {
      problems.push(file.warning(base, "changes nothing (give like, slots or specials)"));
    }
    const specials = (entry.specials ?? []).map((special, i) =>
      reader.special(special, [...base, "specials", i]),
    );
    dates.set(entry.date, {
      date: entry.date,
      slots: entry.slots
        ? reader.slots(entry.slots, [...base, "slots"])
        : entry.like
          ? week[entry.like]
          : undefined,
      specials,
      origin: file.locateLater(base),
    });
  });
  return dates;
}

/** The shows as published, checked, and a warning for a show no slot uses. */
function loadShows(
  input: ScheduleInput,
  usedShows: Set<string>,
  file: YamlFile,
  language: string | undefined,
  problems: InputProblem[],
): Record<string, Show> {
  const shows: Record<string, Show> = {};
  for (const [id, show] of Object.entries(input.shows)) {
    shows[id] = loadProgrammeContent(
      show,
      { file, language, what: "the show" },
      ["shows", id],
      problems,
    );
    if (!usedShows.has(id)) {
      problems.push({
        ...file.locateKey(["shows", id]),
        severity: "warning",
        message: "is never scheduled",
      });
    }
  }
  return shows;
}

function expandWeekdaySet(days: string | Weekday[]): Weekday[] {
  if (Array.isArray(days)) return days;
  if (days === "daily") return [...weekdayNames];
  const [from, to = from] = days.split("-") as [Weekday, Weekday?];
  const start = weekdayNames.indexOf(from);
  const length = ((weekdayNames.indexOf(to) - start + 7) % 7) + 1;
  return Array.from({ length }, (_, i) => weekdayNames[(start + i) % 7] as Weekday);
}
