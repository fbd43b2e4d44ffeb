import type { SourceRef } from "./inputProblem.js";
import type { DatedEntry, Description, Genre, Link, Names, Show, Weekday } from "./inputSchema.js";

/** The validated model that the load stage hands to the schedule and render stages. */
export interface Broadcaster {
  provider: Provider;
  services: Service[];
}

export interface Provider {
  /** SPI's serviceProvider needs a shortName, as a service does. */
  name: Names & { short: string };
  description: Description | undefined;
  originator: string;
  language: string;
  timeZone: string;
  radiodnsHost: string;
  cridAuthority: string;
  piMarginHours: number;
  logos: Logo[];
  links: Link[];
  keywords: string[];
}

export interface Logo {
  url: string;
  width: number;
  height: number;
  type: "logo_colour_square" | "logo_colour_rectangle" | "logo_unrestricted";
  mimeValue: string | undefined;
}

export interface Bearer {
  id: string;
  cost: number;
  mimeValue?: string | undefined;
  bitrate?: number | undefined;
  offset?: number | undefined;
}

export interface Service {
  id: string;
  name: Names & { short: string };
  description: Description | undefined;
  language: string;
  timeZone: string;
  logos: Logo[];
  genres: Genre[];
  keywords: string[];
  links: Link[];
  /** Broadcast bearers (DAB, FM): in both SI documents. */
  bearers: Bearer[];
  /** IP streams: only in the keyed SI document. */
  streams: Bearer[];
  schedule: Schedule;
}

/** A slot of the weekly grid or of a dated day, times in minutes after local midnight. */
export interface Slot {
  start: number;
  end: number | undefined;
  show: string;
  origin: SourceRef;
}

export interface SpecialSlot {
  start: number;
  end: number;
  show: string;
  crid: string | undefined;
  origin: SourceRef;
}

export interface DatedDay {
  date: string;
  /** Replaces the weekday grid for this date when present. */
  slots: Slot[] | undefined;
  specials: SpecialSlot[];
  origin: SourceRef;
}

export interface Schedule {
  shows: Record<string, Show>;
  week: Record<Weekday, Slot[]>;
  dates: Map<string, DatedDay>;
}

export type { DatedEntry, Description, Genre, Link, Names, Show, Weekday };
