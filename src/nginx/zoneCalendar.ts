import { tzOffset, tzScan } from "@date-fns/tz";

/**
 * A time zone's UTC offsets over a span of years, as data: njs has no Intl and no zone
 * database, so the nginx module carries the provider's zone as the offsets it takes.
 */
export interface ZoneOffsets {
  timeZone: string;
  /** Instants (ms since the epoch, ascending) at which `offsets[i]` starts; [0] is the span's start. */
  starts: number[];
  /** UTC offset in minutes from `starts[i]` on (east positive). */
  offsets: number[];
}

/**
 * From 2000 to 2100: the nginx files are written once per key or service change and may serve
 * for years; the zone data is Node's (ICU) at that moment, as the worker's is Cloudflare's.
 */
export const ZONE_SPAN = { from: Date.UTC(2000, 0, 1), to: Date.UTC(2100, 0, 1) };

export function zoneOffsets(timeZone: string, span = ZONE_SPAN): ZoneOffsets {
  const start = new Date(span.from);
  const changes = tzScan(timeZone, { start, end: new Date(span.to) });
  return {
    timeZone,
    starts: [span.from, ...changes.map((change) => change.date.getTime())],
    offsets: [tzOffset(timeZone, start), ...changes.map((change) => change.offset)],
  };
}

/**
 * `Intl.DateTimeFormat` for the one use the rules make of it: the Gregorian calendar date in
 * the provider's zone (`formatToParts` with year, month, day). Anything else throws, so a rule
 * that starts asking for more fails the nginx tests instead of answering differently. Written
 * into the nginx module as source text: refers to nothing outside itself.
 */
export function createZoneIntl(zone: ZoneOffsets): { DateTimeFormat: unknown } {
  const MINUTE_MS = 60_000;
  const FIELDS = ["year", "month", "day"];

  function offsetAt(instant: number): number {
    let low = 0;
    let high = zone.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((zone.starts[middle] as number) <= instant) low = middle;
      else high = middle - 1;
    }
    return zone.offsets[low] as number;
  }

  function DateTimeFormat(
    this: unknown,
    _locale: string,
    options: Record<string, string | undefined>,
  ) {
    if (options.timeZone !== zone.timeZone) {
      throw new RangeError(`this nginx module knows the zone ${zone.timeZone} only`);
    }
    for (const name of Object.keys(options)) {
      if (name !== "timeZone" && !FIELDS.includes(name)) {
        throw new RangeError(`this nginx module formats year, month and day only, not ${name}`);
      }
    }
    const two = (value: number) => (value < 10 ? `0${value}` : String(value));
    return {
      formatToParts(date: Date) {
        const instant = date.getTime();
        const local = new Date(instant + offsetAt(instant) * MINUTE_MS);
        const month = local.getUTCMonth() + 1;
        const day = local.getUTCDate();
        return [
          { type: "month", value: options.month === "numeric" ? String(month) : two(month) },
          { type: "literal", value: "/" },
          { type: "day", value: options.day === "numeric" ? String(day) : two(day) },
          { type: "literal", value: "/" },
          { type: "year", value: String(local.getUTCFullYear()) },
        ];
      },
    };
  }

  return { DateTimeFormat };
}
