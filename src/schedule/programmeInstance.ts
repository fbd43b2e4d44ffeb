import type { Episode, ProgrammeEvent, Show } from "../load/model/broadcaster.js";
import type { SourceRef } from "../load/text/inputProblem.js";
import type { PlainDate } from "../time/plainDate.js";

/** One occurrence of a programme event in one airing, minutes after the programme's start. */
export interface EventOccurrence {
  event: ProgrammeEvent;
  offset: number;
}

/** One airing of a show on one service: what a PI document lists as a programme. */
export interface ProgrammeInstance {
  crid: string;
  /** The CRID is the one made from service and start (none was given, or the given one is it). */
  derivedCrid: boolean;
  /** 0, or with `shortIds: unique` the id programmeShortId gives its service's slot and start. */
  shortId: number;
  /** The show's group CRID (memberOf). */
  groupCrid: string;
  /** The show's own groupShortId (kept from an imported feed), else 0, or with `shortIds: unique` the id groupShortId gives the group CRID. */
  groupShortId: number;
  showId: string;
  show: Show;
  /** What is published: the show, or the show with its episode's fields laid over it. */
  content: Show;
  /** The episode describing this airing, if any. */
  episode: Episode | undefined;
  /** The content's programme events placed in this airing, in time order. */
  events: readonly EventOccurrence[];
  /** The CRID and shortId of each of `events`, in the same order (programmeEventIds). */
  eventIds: readonly ProgrammeEventId[];
  /** UTC instants in milliseconds. */
  start: number;
  end: number;
  /** The local date (service zone) on which the programme is billed to start. */
  billedDate: PlainDate;
  /** Where it comes from: the weekly grid, a dated day's own slots, or a special laid over them. */
  kind: AiringKind;
  /**
   * The slot or special in the YAML that put it there. Its origin is read from it when a message
   * needs one: a slot's is made only then (the model keeps every slot).
   */
  source: { readonly origin: SourceRef };
}

export type AiringKind = "grid" | "dated" | "special";

export interface ProgrammeEventId {
  crid: string;
  shortId: number;
}
