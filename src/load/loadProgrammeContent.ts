import { checkMediumName } from "./checks/checkMediumName.js";
import { checkTranslations } from "./checks/checkTranslations.js";
import { imageMimeType } from "./formats/mediaType.js";
import type { OnDemand, ProgrammeEvent } from "./model/broadcaster.js";
import type { OnDemandInput, ProgrammeEventInput, Show as ShowInput } from "./schema/showSchema.js";
import type { InputProblem } from "./text/inputProblem.js";
import type { YamlFile } from "./text/readYamlFile.js";

/** The input's fields with its events and on-demand availability resolved to times. */
export type ProgrammeContent<T> = Omit<T, "events" | "onDemand"> & {
  events?: ProgrammeEvent[];
  onDemand?: OnDemand;
};

/**
 * A show's or an episode's publishable fields as the model holds them, checked: medium names,
 * image media types, events that last and repeat sensibly, an on-demand window that is one.
 * Content without events or on-demand is returned as it is, so a schedule of 100k plain shows
 * costs no copies.
 */
export function loadProgrammeContent<T extends Partial<ShowInput>>(
  input: T,
  source: ContentSource,
  path: PropertyKey[],
  problems: InputProblem[],
): ProgrammeContent<T> {
  const { file } = source;
  checkText(input, source, path, problems);
  const { events, onDemand, ...rest } = input;
  if (events === undefined && onDemand === undefined) return input as ProgrammeContent<T>;
  return {
    ...rest,
    ...(events && {
      events: events.map((event, i) => toEvent(event, source, [...path, "events", i], problems)),
    }),
    ...(onDemand && { onDemand: toOnDemand(onDemand, file, [...path, "onDemand"], problems) }),
  };
}

/** Where content is read, and the language its own texts are in (when the service is known). */
export interface ContentSource {
  file: YamlFile;
  language: string | undefined;
  /** What it is, for messages: "the show", "the episode". */
  what: string;
}

function checkText(
  input: Partial<Pick<ShowInput, "name" | "images" | "translations">>,
  { file, language, what }: ContentSource,
  path: PropertyKey[],
  problems: InputProblem[],
) {
  if (input.name) checkMediumName(input.name, file, [...path, "name"], problems);
  if (input.translations && language !== undefined) {
    checkTranslations(input, language, what, file, path, problems);
  }
  input.images?.forEach((image, i) => {
    // SPI requires a multimedia element's mimeValue unless it is one of the fixed-size logos.
    if (image.mimeValue === undefined && imageMimeType(image.url) === undefined) {
      problems.push(
        file.error(
          [...path, "images", i, "mimeValue"],
          "is required: the URL's extension names no image type (give e.g. mimeValue: image/jpeg)",
        ),
      );
    }
  });
}

function toEvent(
  input: ProgrammeEventInput,
  source: ContentSource,
  path: PropertyKey[],
  problems: InputProblem[],
): ProgrammeEvent {
  const { file } = source;
  checkText(input, { ...source, what: "the event" }, path, problems);
  const { offset, duration, every, ...text } = input;
  const minutes = { offset: toMinutes(offset), duration: toMinutes(duration) };
  const interval = every === undefined ? undefined : toMinutes(every);
  if (minutes.duration === 0) {
    problems.push(file.error([...path, "duration"], "is 00:00: an event lasts at least a minute"));
  }
  if (interval !== undefined && interval < minutes.duration) {
    problems.push(
      file.error(
        [...path, "every"],
        `is shorter than its duration (${duration}): each repeat would overlap the one before`,
      ),
    );
  }
  return { ...text, ...minutes, every: interval, origin: file.locateLater(path) };
}

function toOnDemand(
  input: OnDemandInput,
  file: YamlFile,
  path: PropertyKey[],
  problems: InputProblem[],
): OnDemand {
  const from = input.availableFrom === undefined ? undefined : Date.parse(input.availableFrom);
  const until = input.availableUntil === undefined ? undefined : Date.parse(input.availableUntil);
  if (until !== undefined && input.availableDays !== undefined) {
    problems.push(
      file.error([...path, "availableDays"], "give either availableUntil or availableDays"),
    );
  }
  if (from !== undefined && until !== undefined && until <= from) {
    problems.push(
      file.error(
        [...path, "availableUntil"],
        `is not after availableFrom (${input.availableFrom})`,
      ),
    );
  }
  const duration = input.duration === undefined ? undefined : toMinutes(input.duration);
  if (duration === 0) {
    problems.push(
      file.error([...path, "duration"], "is 00:00: a recording lasts at least a minute"),
    );
  }
  return {
    files: input.files,
    from,
    until,
    days: input.availableDays,
    duration,
    origin: file.locateLater(path),
  };
}

/** "HH:MM" → minutes. */
export const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
