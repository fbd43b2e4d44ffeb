import type { Service } from "../load/model/broadcaster.js";
import type { InputProblem } from "../load/text/inputProblem.js";
import { addDays, type PlainDate } from "../time/plainDate.js";
import { resolveWallTime } from "../time/wallClock.js";
import type { ProgrammeInstance } from "./programmeInstance.js";
import { selectProgrammeDay } from "./selectProgrammeDay.js";

const HOUR_MS = 3_600_000;

/**
 * TS 102 818 §10.3: "the majority of the schedule shall be within that day". The programmes
 * the date's PI document lists (selectProgrammeDay, with the provider's piMarginHours) are
 * measured by their real lengths: the time inside the local day must be more than half of all
 * the time they cover. If it is not, the warning is at the listed programme lying most outside
 * the day (a long one of the neighbouring day, usually); the schedule stage reports the first
 * date that has one. It reads only the programmes the document lists: those billed the day
 * before, that day and the day after (a margin under 24 hours), when no programme lasts a whole
 * day (schedule/rollCheck.ts keeps it per date).
 */
export function dayMajorityOn(
  service: Service,
  programmes: readonly ProgrammeInstance[],
  date: PlainDate,
  marginHours: number,
): InputProblem | undefined {
  const found = measure(service, programmes, date, marginHours);
  if (!found) return undefined;
  const { inside, total, most } = found;
  // Whether a smaller margin is the cure, or the programmes themselves run too long.
  const cure =
    marginHours > 0 && !measure(service, programmes, date, 0)
      ? `lower piMarginHours (${marginHours})`
      : "split the long programmes";
  const hours = (ms: number) => `${Math.round((ms / HOUR_MS) * 10) / 10} h`;
  return {
    ...most.source.origin,
    severity: "warning",
    message: `makes the PI document of ${service.id} for ${date} list ${hours(total)} of programmes, only ${hours(inside)} (${Math.round((inside / total) * 100)} %) within that day; TS 102 818 §10.3 wants the majority inside: ${cure}`,
  };
}

/** The day's listed time inside it and in all, when inside is not the majority. */
function measure(
  service: Service,
  programmes: readonly ProgrammeInstance[],
  date: PlainDate,
  marginHours: number,
): { inside: number; total: number; most: ProgrammeInstance } | undefined {
  const day = selectProgrammeDay(programmes, service.timeZone, date, marginHours);
  const dayStart = resolveWallTime(service.timeZone, date, 0);
  const dayEnd = resolveWallTime(service.timeZone, addDays(date, 1), 0);
  let inside = 0;
  let total = 0;
  let most: { programme: ProgrammeInstance; outside: number } | undefined;
  for (const programme of day.programmes) {
    const within = Math.max(
      0,
      Math.min(programme.end, dayEnd) - Math.max(programme.start, dayStart),
    );
    const length = programme.end - programme.start;
    inside += within;
    total += length;
    if (!most || length - within > most.outside) most = { programme, outside: length - within };
  }
  if (total === 0 || inside * 2 > total || !most) return undefined;
  return { inside, total, most: most.programme };
}
