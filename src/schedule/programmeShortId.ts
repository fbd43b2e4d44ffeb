/**
 * Unique programme shortIds (`shortIds: unique`), without state: a programme's shortId is its
 * UTC start minute, counted from 1970 and taken modulo 2^23, in the upper half of the 24-bit
 * shortCRID range (TS 102 818 §5.2.2): 8388608 + (minute mod 8388608).
 *
 * - Unique within a service: a service never airs two programmes at once, and a programme lasts
 *   at least a minute, so no two of its programmes start in one minute (expandSchedule refuses a
 *   schedule where they would); the same minute comes round only every 2^23 minutes, 15.9 years,
 *   far beyond the published window and the six months before a shortCRID may be reused.
 * - Stable: the start alone decides it, so every rebuild on any day gives the same id, exactly
 *   as the derived CRID `…/<yyyyMMddHHmm>` names the programme by its start. An id names one
 *   start minute of the service; it comes back only with that minute, 15.9 years on.
 * - Never 0, which the `zero` policy writes; the lower half stays free for other ids.
 */
export const SHORT_ID_CYCLE = 2 ** 23;
const MINUTE_MS = 60_000;

export function programmeShortId(start: number): number {
  const minute = Math.floor(start / MINUTE_MS);
  return SHORT_ID_CYCLE + (((minute % SHORT_ID_CYCLE) + SHORT_ID_CYCLE) % SHORT_ID_CYCLE);
}
