import { createHash } from "node:crypto";
import type { ServiceInput } from "../schema/serviceSchema.js";
import type { InputProblem, SourceRef } from "../text/inputProblem.js";
import type { Service } from "./broadcaster.js";

/**
 * With `shortIds: unique` each service has a slot of the 24-bit shortId range: two blocks, for
 * its programmes and its programme events (schedule/programmeShortId.ts). 31 slots per RadioDNS
 * FQDN: TS 102 818 §5.2.2 asks shortIds to be unique within one SPI service, all the data of
 * one FQDN, so services under other FQDNs use the same slots again.
 */
export const SHORT_ID_SLOTS = 31;

/** The slot a service's id prefers when it does not choose one: a hash of the id. */
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

interface Claim {
  service: string;
  file: string;
  at: SourceRef;
}

/**
 * The slots of the services with unique shortIds, per FQDN. A slot given in the data is taken
 * at once (two services in one would give their programmes the same shortIds); the others are
 * settled when all are known, so that up to 31 services of one FQDN never collide.
 */
export class ShortIdSlots {
  readonly #taken = new Map<string, Map<number, Claim>>();
  readonly #pending: (Claim & { fqdn: string })[] = [];

  #slotsOf(fqdn: string): Map<number, Claim> {
    const slots = this.#taken.get(fqdn) ?? new Map<number, Claim>();
    this.#taken.set(fqdn, slots);
    return slots;
  }

  /** Takes the slot the service gives, or says which service has it; `at` locates it. */
  take(
    input: Pick<ServiceInput, "id" | "shortIdSlot">,
    fqdn: string,
    file: string,
    at: SourceRef,
  ): InputProblem | undefined {
    const claim = { service: input.id, file, at };
    const slot = input.shortIdSlot;
    if (slot === undefined) {
      this.#pending.push({ ...claim, fqdn });
      return undefined;
    }
    const slots = this.#slotsOf(fqdn);
    const holder = slots.get(slot);
    if (holder === undefined) {
      slots.set(slot, claim);
      return undefined;
    }
    const free = [...Array(SHORT_ID_SLOTS).keys()].filter((s) => !slots.has(s));
    return {
      ...at,
      severity: "error",
      message: `shortIdSlot ${slot}, as service "${holder.service}" (${holder.file}) has under ${fqdn}, so their programmes would share shortIds (shortIds: unique): give one of them shortIdSlot: ${free[0] ?? "(none free)"} (free: ${free.slice(0, 8).join(", ")}${free.length > 8 ? ", …" : ""})`,
    };
  }

  /**
   * The slot of each service that gives none, in id order so no file order decides: its id's
   * slot, or when that is taken the next free one of its FQDN (with a warning: a service added
   * later could take it first, and its shortIds would change, so it is best pinned). An error
   * for a service when all 31 slots of its FQDN are taken.
   */
  settle(): { slots: Map<string, number>; problems: { service: string; problem: InputProblem }[] } {
    const slots = new Map<string, number>();
    const problems: { service: string; problem: InputProblem }[] = [];
    const pending = [...this.#pending].sort((a, b) => (a.service < b.service ? -1 : 1));
    for (const claim of pending) {
      const taken = this.#slotsOf(claim.fqdn);
      const preferred = defaultShortIdSlot(claim.service);
      const slot = [...Array(SHORT_ID_SLOTS).keys()]
        .map((step) => (preferred + step) % SHORT_ID_SLOTS)
        .find((s) => !taken.has(s));
      if (slot === undefined) {
        problems.push({
          service: claim.service,
          problem: {
            ...claim.at,
            severity: "error",
            message: `has shortIds: unique, but the ${SHORT_ID_SLOTS} shortIdSlots of ${claim.fqdn} are taken: give this service shortIds: zero, or its own radiodns fqdn`,
          },
        });
        continue;
      }
      taken.set(slot, claim);
      slots.set(claim.service, slot);
      if (slot !== preferred) {
        const holder = this.#taken.get(claim.fqdn)?.get(preferred)?.service;
        problems.push({
          service: claim.service,
          problem: {
            ...claim.at,
            severity: "warning",
            message: `its id gives shortIdSlot ${preferred}, which service "${holder}" has: it takes ${slot}, the next free one of ${claim.fqdn}; pin it (shortIdSlot: ${slot}) so that a service added later cannot move it and change its shortIds`,
          },
        });
      }
    }
    return { slots, problems };
  }
}

/**
 * The services with their settled slots. A slot its id does not give depends on the other
 * services, not only on the service's own files: it joins the service's sources, so a build
 * renders its documents again when it moves.
 */
export function withSettledSlots(
  services: readonly Service[],
  slots: ReadonlyMap<string, number>,
): Service[] {
  return services.map((service) => {
    const slot = slots.get(service.id);
    if (slot === undefined || slot === service.shortIdSlot) return service;
    const sources = createHash("sha256")
      .update(`${service.sources}\0shortIdSlot ${slot}`)
      .digest("hex");
    return { ...service, shortIdSlot: slot, sources };
  });
}
