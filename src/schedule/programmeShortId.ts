import { fnv1a32 } from "../load/model/shortIdSlot.js";

/**
 * shortIds with `shortIds: unique` (TS 102 818 §5.2.2): unique within one "SPI service", all
 * the data of one FQDN (or one broadcast carousel, where a DAB multiplexer merges the services
 * of an ensemble), so across the programmes, programme events and groups of the provider's
 * services under that FQDN; never re-used within six months; never 0, the value of the `zero` policy. Without
 * state: each id comes from what does not move, so every rebuild on any day gives the same.
 *
 * The 24-bit range is cut into blocks of SHORT_ID_CYCLE values, one per minute of 184 days (no
 * six calendar months are longer); a value is `block × cycle + n + 1`, at most 16,692,480:
 * - block 0: groups (memberOf), n a hash of the group CRID; groups have no time, and two
 *   groups of the provider that hash alike are refused (groupShortIdCollisions).
 * - block 1 + 2 × slot: the programmes of the service in that slot, n its UTC start minute
 *   modulo the cycle. A service never airs two programmes at once and each lasts a minute at
 *   least, so within any 184 days no two of its programmes share a minute (expandSchedule
 *   refuses a schedule where they would); the same n comes back only 184 days later.
 * - block 2 + 2 × slot: the service's programme events, n their start minute likewise; two
 *   events of a service starting in one minute are refused.
 * A service's slot (0 to 30 per FQDN, load/shortIdSlot.ts) is its `shortIdSlot`, or by default
 * a hash of its id, or the next free slot when another service of its FQDN has that one; the
 * loader refuses two `unique` services given one slot and names the free ones.
 */
export const SHORT_ID_CYCLE = 184 * 24 * 60;
const MINUTE_MS = 60_000;

function inCycle(instant: number): number {
  const minute = Math.floor(instant / MINUTE_MS);
  return ((minute % SHORT_ID_CYCLE) + SHORT_ID_CYCLE) % SHORT_ID_CYCLE;
}

/** The shortId of a programme of the service in `slot` that starts at `start` (UTC ms). */
export function programmeShortId(slot: number, start: number): number {
  return (1 + 2 * slot) * SHORT_ID_CYCLE + inCycle(start) + 1;
}

/** The shortId of a programme event of the service in `slot` that starts at `start`. */
export function eventShortId(slot: number, start: number): number {
  return (2 + 2 * slot) * SHORT_ID_CYCLE + inCycle(start) + 1;
}

/** The shortId of a group (memberOf) of a service with `shortIds: unique`. */
export function groupShortId(groupCrid: string): number {
  return (fnv1a32(groupCrid) % SHORT_ID_CYCLE) + 1;
}
