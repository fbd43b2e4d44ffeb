import type { ServiceInput } from "../schema/inputSchema.js";
import type { InputProblem, SourceRef } from "../text/inputProblem.js";

/**
 * With `shortIds: unique` each service has a slot of the provider's 24-bit shortId range: two
 * blocks, for its programmes and its programme events (schedule/programmeShortId.ts). 31 slots.
 */
export const SHORT_ID_SLOTS = 31;

/** The slot of a service that does not choose one: a hash of its id, which does not move. */
export function defaultShortIdSlot(serviceId: string): number {
  return fnv1a32(serviceId) % SHORT_ID_SLOTS;
}

/** FNV-1a, 32 bits, over UTF-16 code units: small, fixed, and the same on every platform. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The slots taken so far by services with unique shortIds, and where each was given. */
export class ShortIdSlots {
  readonly #taken = new Map<number, { service: string; file: string }>();

  /**
   * Takes the service's slot, or says which service has it: two services in one slot would
   * give their programmes the same shortIds. `at` locates `shortIdSlot` (or the id).
   */
  take(
    input: Pick<ServiceInput, "id" | "shortIdSlot">,
    file: string,
    at: SourceRef,
  ): InputProblem | undefined {
    const slot = input.shortIdSlot ?? defaultShortIdSlot(input.id);
    const holder = this.#taken.get(slot);
    if (holder === undefined) {
      this.#taken.set(slot, { service: input.id, file });
      return undefined;
    }
    const free = [...Array(SHORT_ID_SLOTS).keys()].filter((s) => !this.#taken.has(s));
    const how =
      input.shortIdSlot === undefined ? `its id gives shortIdSlot ${slot}` : `shortIdSlot ${slot}`;
    return {
      ...at,
      severity: "error",
      message:
        free.length === 0
          ? `has shortIds: unique, but the ${SHORT_ID_SLOTS} shortIdSlots of the provider are taken: give this service shortIds: zero`
          : `${how}, as service "${holder.service}" (${holder.file}) has, so their programmes would share shortIds (shortIds: unique): give one of them shortIdSlot: ${free[0]} (free: ${free.slice(0, 8).join(", ")}${free.length > 8 ? ", …" : ""})`,
    };
  }
}
