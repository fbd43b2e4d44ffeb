import type { Service } from "../load/model/broadcaster.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "../load/text/inputProblem.js";
import { showGroupCrid } from "./programmeCrid.js";
import { groupShortId } from "./programmeShortId.js";

/**
 * Groups of services with `shortIds: unique` under one RadioDNS FQDN (one SPI service, the
 * scope TS 102 818 §5.2.2 gives shortIds) whose CRIDs hash to one shortId (groupShortId): a
 * receiver would take their programmes for members of one group. Rare (two of a few hundred
 * groups in 264,960 values), so refused rather than worked around, at a slot that airs the show.
 */
export function groupShortIdCollisions(
  services: readonly Service[],
  cridAuthority: string,
): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Map<string, { crid: string; at: string }>();
  for (const service of services) {
    if (service.shortIds !== "unique") continue;
    for (const [showId, show] of Object.entries(service.schedule.shows)) {
      const crid = show.group ?? showGroupCrid(cridAuthority, service.id, showId);
      const shortId = groupShortId(crid);
      const origin = airingOf(service, showId);
      const key = `${service.radiodns.fqdn} ${shortId}`;
      const other = seen.get(key);
      if (other === undefined) {
        seen.set(key, { crid, at: origin ? formatSourceRef(origin) : service.id });
      } else if (other.crid !== crid && origin) {
        problems.push({
          ...origin,
          severity: "error",
          message: `show "${showId}" has group ${crid}, whose shortId ${shortId} the group ${other.crid} (${other.at}) has too (shortIds: unique): give the show another group CRID (group:)`,
        });
      }
    }
  }
  return problems;
}

/** The first slot or special of the service that airs the show. */
function airingOf(service: Service, showId: string): SourceRef | undefined {
  const { week, dates } = service.schedule;
  for (const slots of Object.values(week)) {
    const slot = slots.find((s) => s.show === showId);
    if (slot) return slot.origin;
  }
  for (const day of dates.values()) {
    const entry = [...(day.slots ?? []), ...day.specials].find((s) => s.show === showId);
    if (entry) return entry.origin;
  }
  return undefined;
}
