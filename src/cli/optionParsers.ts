import { InvalidArgumentError } from "commander";
import { isCalendarDate } from "../time/plainDate.js";

// Every command's option parsers: each validates its value and says what it expected, so a bad
// option is a usage error (exit 2) before anything runs.

/**
 * `--keys-file ""` (say, an unset variable in a cron line) must not read as "no keys file": the
 * build would fall back to $SPI_API_KEYS or the public demo key.
 */
export function parseKeysFilePath(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("expected the path of a keys file");
  return value;
}

/** `--now` must name an instant, so a build never depends on the host's zone. */
export function parseInstant(value: string): number {
  const parts =
    /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(
      value,
    );
  if (!parts) {
    throw new InvalidArgumentError(
      "expected an ISO 8601 instant with a zone, e.g. 2026-11-23T04:00:00Z",
    );
  }
  const [, date = "", hour, minute, second = "00", offsetHours = "00", offsetMinutes = "00"] =
    parts;
  const year = Number(date.slice(0, 4));
  // The published window reaches days beyond `now`, and PI paths have four-digit years.
  if (year < 1970 || year > 9998) {
    throw new InvalidArgumentError("must lie between the years 1970 and 9998");
  }
  // Date.parse rolls 2026-02-30 over to March 2 and takes 24:00: a typo must not build another day.
  if (!isCalendarDate(date)) throw new InvalidArgumentError(`${date} is not a calendar date`);
  if (
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59 ||
    Number(offsetHours) > 23 ||
    Number(offsetMinutes) > 59
  ) {
    throw new InvalidArgumentError("not a valid time of day or zone offset");
  }
  return Date.parse(value);
}

export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(seconds)) {
    throw new InvalidArgumentError("expected a number of seconds, e.g. 600");
  }
  return seconds;
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError("expected a port number, 0–65535");
  return port;
}

export function parseBaseUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]/i.test(value) || !URL.canParse(value)) {
    throw new InvalidArgumentError(
      "expected an http(s) URL, e.g. https://spi.example.org or http://127.0.0.1:8080",
    );
  }
  return value;
}

export function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0)) {
    throw new InvalidArgumentError("expected a positive number of seconds, e.g. 15");
  }
  return seconds;
}
