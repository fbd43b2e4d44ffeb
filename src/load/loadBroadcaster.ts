import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import type { z } from "zod";
import type { Broadcaster, DatedDay, Logo, Schedule, Service, Slot } from "./broadcaster.js";
import { InputError, type InputProblem } from "./inputProblem.js";
import {
  type LogoInput,
  type ProviderInput,
  providerSchema,
  type ScheduleInput,
  type ServiceInput,
  scheduleSchema,
  serviceSchema,
  type Weekday,
  weekdayNames,
} from "./inputSchema.js";
import { readYamlFile, type YamlFile } from "./readYamlFile.js";
import { isCalendarDate } from "../time/plainDate.js";
import { imageMimeType } from "./imageMimeType.js";

/**
 * The load stage: reads `provider.yaml`, `services/*.yaml` and `schedules/<service id>.yaml`
 * from a data folder and returns the validated model, or throws an InputError listing every
 * problem found with its file, line, column and field.
 */
export async function loadBroadcaster(dataDir: string): Promise<Broadcaster> {
  const problems: InputProblem[] = [];
  const display = (file: string) => relative(process.cwd(), file) || file;

  const providerFile = await readYamlFile(display(join(dataDir, "provider.yaml")));
  const provider = parseWith(providerSchema, providerFile, problems);

  const serviceFiles = await listYaml(join(dataDir, "services"));
  if (serviceFiles.length === 0) {
    problems.push({
      ...providerFile.locate([]),
      file: display(join(dataDir, "services")),
      severity: "error",
      message: "no service files (services/<id>.yaml)",
    });
  }

  const services: Service[] = [];
  const seenIds = new Map<string, YamlFile>();
  for (const path of serviceFiles) {
    const file = await readYamlFile(display(path));
    const input = parseWith(serviceSchema, file, problems);
    if (!input || !provider) continue;
    const earlier = seenIds.get(input.id);
    if (earlier) {
      problems.push(error(file, ["id"], `service id "${input.id}" is also used in ${earlier.file}`));
      continue;
    }
    seenIds.set(input.id, file);
    const scheduleFile = await readYamlFile(display(join(dataDir, "schedules", `${input.id}.yaml`))).catch(
      () => undefined,
    );
    if (!scheduleFile) {
      problems.push(error(file, ["id"], `no schedule file schedules/${input.id}.yaml for service "${input.id}"`));
      continue;
    }
    const scheduleInput = parseWith(scheduleSchema, scheduleFile, problems);
    if (!scheduleInput) continue;
    services.push(toService(input, provider, file, toSchedule(scheduleInput, scheduleFile, problems), problems));
  }

  if (provider) checkTimeZone(provider.timeZone, providerFile, ["timeZone"], problems);
  if (problems.some((p) => p.severity === "error") || !provider) throw new InputError(problems);

  services.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    provider: {
      name: provider.name,
      description: provider.description,
      originator: provider.originator,
      language: provider.language,
      timeZone: provider.timeZone,
      radiodnsHost: provider.radiodnsHost,
      cridAuthority: provider.cridAuthority,
      piMarginHours: provider.piMarginHours ?? 6,
      logos: (provider.logos ?? []).map((logo, i) => toLogo(logo, providerFile, ["logos", i], problems)),
      links: provider.links ?? [],
      keywords: provider.keywords ?? [],
    },
    services,
  };
}

async function listYaml(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => name.endsWith(".yaml") || name.endsWith(".yml"))
    .sort()
    .map((name) => join(dir, name));
}

function error(file: YamlFile, path: PropertyKey[], message: string): InputProblem {
  return { ...file.locate(path), severity: "error", message };
}

function parseWith<T extends z.ZodType>(
  schema: T,
  file: YamlFile,
  problems: InputProblem[],
): z.infer<T> | undefined {
  if (file.syntaxProblems.length > 0) {
    problems.push(...file.syntaxProblems);
    return undefined;
  }
  const result = schema.safeParse(file.value ?? {});
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const path = issue.path as PropertyKey[];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) problems.push(error(file, [...path, key], "is not a known field"));
    } else {
      problems.push(error(file, path, describeIssue(issue, file, path)));
    }
  }
  return undefined;
}

function describeIssue(issue: z.core.$ZodIssue, file: YamlFile, path: PropertyKey[]): string {
  const value = valueAt(file.value, path);
  if (value === undefined && issue.code === "invalid_type") return "is required";
  const shown = typeof value === "string" ? `"${value}" ` : "";
  return `${shown}${issue.message}`;
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

function checkTimeZone(zone: string, file: YamlFile, path: PropertyKey[], problems: InputProblem[]) {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
  } catch {
    problems.push(error(file, path, `"${zone}" is not an IANA time zone (e.g. Europe/Zurich)`));
  }
}

const standardLogoTypes: Record<string, Logo["type"]> = {
  "32x32": "logo_colour_square",
  "112x32": "logo_colour_rectangle",
};

function toLogo(input: LogoInput, file: YamlFile, path: PropertyKey[], problems: InputProblem[]): Logo {
  const [width, height] = input.size.split("x").map(Number) as [number, number];
  const sizeType = standardLogoTypes[input.size];
  const type = input.type ?? sizeType ?? "logo_unrestricted";
  if (type !== "logo_unrestricted" && type !== sizeType) {
    const expected = type === "logo_colour_square" ? "32x32" : "112x32";
    problems.push(error(file, [...path, "type"], `${type} must be ${expected}, not ${input.size}`));
  }
  const mimeValue = input.mimeValue ?? imageMimeType(input.url);
  if (type === "logo_unrestricted" && !mimeValue) {
    problems.push(error(file, [...path, "mimeValue"], "is required for a logo whose URL has no image extension"));
  }
  return { url: input.url, width, height, type, mimeValue };
}

function toService(
  input: ServiceInput,
  provider: ProviderInput,
  file: YamlFile,
  schedule: Schedule,
  problems: InputProblem[],
): Service {
  if (input.timeZone) checkTimeZone(input.timeZone, file, ["timeZone"], problems);
  return {
    id: input.id,
    name: input.name,
    description: input.description,
    language: input.language ?? provider.language,
    timeZone: input.timeZone ?? provider.timeZone,
    logos: (input.logos ?? []).map((logo, i) => toLogo(logo, file, ["logos", i], problems)),
    genres: input.genres,
    keywords: input.keywords ?? [],
    links: input.links ?? [],
    bearers: [
      ...(input.bearers?.dab ?? []).map((b) => ({ ...b, cost: b.cost ?? 20 })),
      ...(input.bearers?.fm ?? []).map((b) => ({ ...b, cost: b.cost ?? 50 })),
    ],
    streams: (input.streams ?? []).map((s) => ({
      id: s.url,
      cost: s.cost ?? 100,
      mimeValue: s.mimeValue,
      bitrate: s.bitrate,
      offset: s.offset,
    })),
    schedule,
  };
}

const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

function expandWeekdaySet(days: string | Weekday[]): Weekday[] {
  if (Array.isArray(days)) return days;
  if (days === "daily") return [...weekdayNames];
  const [from, to = from] = days.split("-") as [Weekday, Weekday?];
  const start = weekdayNames.indexOf(from);
  const length = ((weekdayNames.indexOf(to) - start + 7) % 7) + 1;
  return Array.from({ length }, (_, i) => weekdayNames[(start + i) % 7] as Weekday);
}

function toSchedule(input: ScheduleInput, file: YamlFile, problems: InputProblem[]): Schedule {
  const checkShow = (show: string, path: PropertyKey[]) => {
    if (!(show in input.shows)) problems.push(error(file, path, `show "${show}" is not defined under shows`));
  };
  const toSlots = (slots: ScheduleInput["grid"][number]["slots"], base: PropertyKey[]): Slot[] =>
    slots.map((slot, i) => {
      checkShow(slot.show, [...base, i, "show"]);
      return {
        start: toMinutes(slot.start),
        end: slot.end === undefined ? undefined : toMinutes(slot.end),
        show: slot.show,
        origin: file.locate([...base, i]),
      };
    });

  const week = Object.fromEntries(weekdayNames.map((d) => [d, [] as Slot[]])) as Record<Weekday, Slot[]>;
  const claimedBy = new Map<Weekday, number>();
  input.grid.forEach((block, b) => {
    const slots = toSlots(block.slots, ["grid", b, "slots"]);
    for (const day of expandWeekdaySet(block.days)) {
      const other = claimedBy.get(day);
      if (other !== undefined) {
        problems.push(error(file, ["grid", b, "days"], `${day} is already scheduled by grid[${other}]`));
        continue;
      }
      claimedBy.set(day, b);
      week[day] = slots;
    }
  });

  const dates = new Map<string, DatedDay>();
  (input.dates ?? []).forEach((entry, e) => {
    const base = ["dates", e];
    if (!isCalendarDate(entry.date)) {
      problems.push(error(file, [...base, "date"], `"${entry.date}" is not a calendar date`));
      return;
    }
    if (dates.has(entry.date)) {
      problems.push(error(file, [...base, "date"], `${entry.date} is already listed under dates`));
      return;
    }
    if (entry.like && entry.slots) {
      problems.push(error(file, [...base, "like"], "give either like or slots, not both"));
    }
    const specials = (entry.specials ?? []).map((special, i) => {
      checkShow(special.show, [...base, "specials", i, "show"]);
      return {
        start: toMinutes(special.start),
        end: toMinutes(special.end),
        show: special.show,
        crid: special.crid,
        origin: file.locate([...base, "specials", i]),
      };
    });
    dates.set(entry.date, {
      date: entry.date,
      slots: entry.slots ? toSlots(entry.slots, [...base, "slots"]) : entry.like ? week[entry.like] : undefined,
      specials,
      origin: file.locate(base),
    });
  });

  return { shows: input.shows, week, dates };
}
