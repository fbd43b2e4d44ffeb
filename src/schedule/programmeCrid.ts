import { boundedMemo } from "../memo/boundedMemo.js";

/** Services on one grid start programmes at the same instants: each stamp is formatted once. */
const minuteStamp = boundedMemo((instant: number) =>
  new Date(instant).toISOString().slice(0, 16).replace(/[-T:]/g, ""),
);

/**
 * CRIDs in the seed's form `crid://<authority>/<kind>/<number>`. For a programme the kind is the
 * service id and the number its UTC start (yyyyMMddHHmm): stable across rebuilds, and unique
 * because a service never airs two programmes at one instant. It exceeds 24 bits, which is why
 * shortId is always 0 (seed §2.1).
 */
export function programmeCrid(authority: string, serviceId: string, start: number): string {
  return `crid://${authority}/${serviceId}/${minuteStamp(start)}`;
}

/**
 * A programme event's CRID: its programme's and its offset in minutes (`…/90m`), so adding an
 * event leaves the others' as they were; the `nth` (from 1) of events at one offset is told
 * apart from the first (`…/0m-2`).
 */
export function programmeEventCrid(programmeCrid: string, offset: number, nth: number): string {
  return `${programmeCrid}/${offset}m${nth > 1 ? `-${nth}` : ""}`;
}

/** The show's group: show ids start with a letter, so they never look like a programme number. */
export function showGroupCrid(authority: string, serviceId: string, showId: string): string {
  return `crid://${authority}/${serviceId}/${showId}`;
}
