import { defaultShortIdSlot, SHORT_ID_SLOTS, ShortIdSlots } from "../../load/model/shortIdSlot.js";
import type { ServiceInput } from "../../load/schema/serviceSchema.js";
import { NOT_LOCATED } from "../../load/text/inputProblem.js";
import { programmeShortId, SHORT_ID_CYCLE } from "../../schedule/programmeShortId.js";
import type { ImportNote } from "../importNote.js";
import type { FeedProgramme } from "../read/feedModel.js";

/**
 * The slot whose shortIds the programmes carry, when they are all the build's own formula
 * (schedule/programmeShortId.ts): a site spi-static built, whose services may have had a slot
 * other than their id's. The block of the first shortId names the slot; every start must agree.
 */
export function feedShortIdSlot(numbered: readonly FeedProgramme[]): number | undefined {
  const [first] = numbered;
  if (first?.shortId === undefined) return undefined;
  const slot = (Math.floor((first.shortId - 1) / SHORT_ID_CYCLE) - 1) / 2;
  if (!Number.isInteger(slot) || slot < 0 || slot >= SHORT_ID_SLOTS) return undefined;
  return numbered.every((p) => p.shortId === programmeShortId(slot, p.start)) ? slot : undefined;
}

/**
 * The slots `validate` would settle for the services with `shortIds: unique`, written where
 * they are not the id's own (load/model/shortIdSlot.ts): unwritten, such a slot depends on the
 * other services, and every validate and build would warn to pin it. One note per service here
 * instead. A slot read from the feed that another service of its FQDN already has is dropped,
 * with a note: their programmes would share shortIds.
 */
export function pinShortIdSlots(
  services: readonly ServiceInput[],
  radiodnsHost: string,
  notes: ImportNote[],
): void {
  const unique = services.filter((service) => service.shortIds === "unique");
  const fqdnOf = (service: ServiceInput) => service.radiodns?.fqdn ?? radiodnsHost;
  const slots = new ShortIdSlots();
  for (const service of unique) {
    const fqdn = fqdnOf(service);
    if (slots.take(service, fqdn, service.id, NOT_LOCATED) === undefined) continue;
    notes.push({
      origin: `service ${service.id}`,
      message: `the feed's shortIds are those of shortIdSlot ${service.shortIdSlot}, which another service has under ${fqdn}: not kept, the build gives it a free slot`,
    });
    delete service.shortIdSlot;
    slots.take(service, fqdn, service.id, NOT_LOCATED);
  }
  const settled = slots.settle().slots;
  for (const service of unique) {
    const slot = settled.get(service.id);
    if (service.shortIdSlot !== undefined || slot === undefined) continue;
    if (slot === defaultShortIdSlot(service.id)) continue;
    service.shortIdSlot = slot;
    notes.push({
      origin: `service ${service.id}`,
      message: `shortIdSlot: ${slot} written: its id's slot (${defaultShortIdSlot(service.id)}) is another service's under ${fqdnOf(service)}; pinned, so that a service added later cannot move it`,
    });
  }
}
