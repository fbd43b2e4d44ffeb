import { isIP } from "node:net";
import { InvalidArgumentError } from "commander";
import { timeZoneProblem } from "../load/formats/ianaTimeZone.js";
import { isCalendarDate } from "../time/plainDate.js";

// Every command's option parsers: each validates its value and says what it expected, so a bad
// option is a usage error (exit 2) before anything runs.

/**
 * A file's path, never empty: `--keys-file ""` (an unset variable in a cron line) must not read
 * as "no keys file" (the build would fall back to $SPI_API_KEYS or the public demo key), nor
 * `nginx --digests-file ""` keep the build's keys, nor `upload-list --since ""` put every
 * document again.
 */
function filePath(what: string): (value: string) => string {
  return (value) => {
    if (value.trim() === "") throw new InvalidArgumentError(`expected the path of ${what}`);
    return value;
  };
}

export const parseKeysFilePath = filePath("a keys file");
export const parseDigestsFilePath = filePath("a digests file");
export const parseRecordFilePath = filePath("an uploaded.json");

/**
 * `--data`, `--out`, `init [dir]`: `--out ""` (an unset variable in a cron line) must not mean
 * the current folder, where a build would publish beside the user's own files.
 */
export function parseFolderPath(value: string): string {
  if (value.trim() === "") throw new InvalidArgumentError("expected the path of a folder");
  if (/[\0\r\n]/.test(value)) {
    throw new InvalidArgumentError("a folder path holds no NUL or line break");
  }
  return value;
}

/**
 * `verify --key`: what a client sends after `ClientIdentifier`. An empty key (an unset
 * variable) would quietly verify without one; spaces at its ends or control characters cannot
 * reach the site as typed.
 */
export function parseApiKey(value: string): string {
  if (value === "") throw new InvalidArgumentError("expected an API key");
  if (value.trim() !== value || /[\p{Cc}]/u.test(value)) {
    throw new InvalidArgumentError(
      "an API key has no spaces at its ends and no control characters",
    );
  }
  return value;
}

/** `--host`: an address to listen on, a DNS name or an IPv4/IPv6 literal (`::` for every address). */
export function parseListenHost(value: string): string {
  const name =
    /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (name.test(value) || isIP(value.replace(/^\[(.*)\]$/, "$1")) !== 0) return value;
  throw new InvalidArgumentError(
    "expected an address to listen on, e.g. 127.0.0.1, 0.0.0.0, ::1 or localhost",
  );
}

/** `import <source...>`: each a file, a folder or a URL; an empty one (an unset variable) is no source. */
export function parseSources(value: string, previous: string[] = []): string[] {
  if (value.trim() === "") throw new InvalidArgumentError("expected a file, a folder or a URL");
  return [...previous, value];
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

/** A day: Node's timers fire at once past about 24.8 days, so a typo must not mean "no wait". */
const MAX_SECONDS = 86_400;

/** `build --wait`: 0 (give up at once) up to a day. */
export function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds <= MAX_SECONDS)) {
    throw new InvalidArgumentError(
      `expected a number of seconds from 0 to ${MAX_SECONDS}, e.g. 600`,
    );
  }
  return seconds;
}

/** `verify --stale-after`: nights late that fail, 1 (any) to 7 (the far end's whole week). */
export function parseNights(value: string): number {
  const nights = Number(value);
  if (!/^\d+$/.test(value) || nights < 1 || nights > 7) {
    throw new InvalidArgumentError("expected a number of nights from 1 to 7, e.g. 2");
  }
  return nights;
}

/** Threads are not free: far more than the machine's cores only costs memory. */
const MAX_JOBS = 256;

/** `build --jobs`: how many threads may parse data files at once, 1 (the main thread only) up to 256. */
export function parseJobs(value: string): number {
  const jobs = Number(value);
  if (!/^\d+$/.test(value) || jobs < 1 || jobs > MAX_JOBS) {
    throw new InvalidArgumentError(
      `expected a number of threads from 1 to ${MAX_JOBS}, e.g. 4 (1: everything on the main thread)`,
    );
  }
  return jobs;
}

/** `serve --port`: 0 (any free port) to 65535. */
export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new InvalidArgumentError("expected a port number, 0–65535");
  return port;
}

/** `verify <baseUrl>`: the site root, http or https. */
export function parseBaseUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]/i.test(value) || !URL.canParse(value)) {
    throw new InvalidArgumentError(
      "expected an http(s) URL, e.g. https://spi.example.org or http://127.0.0.1:8080",
    );
  }
  return value;
}

/** `verify --timeout`: per request, more than 0 and at most a day. */
export function parseTimeout(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(seconds > 0 && seconds <= MAX_SECONDS)) {
    throw new InvalidArgumentError(
      `expected a positive number of seconds up to ${MAX_SECONDS}, e.g. 15`,
    );
  }
  return seconds;
}

/** An IANA zone, as the data's `timeZone` takes it (with its "did you mean"). */
export function parseTimeZone(value: string): string {
  const problem = timeZoneProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

/**
 * `--service-time-zone news=Europe/London`, repeatable: the zone of one service whose
 * schedules are not in the provider's zone. Collected into one map.
 */
export function parseServiceTimeZone(
  value: string,
  previous: Record<string, string> = {},
): Record<string, string> {
  const [, service, zone = ""] = /^([^=\s]+)=(.+)$/.exec(value) ?? [];
  if (service === undefined) {
    throw new InvalidArgumentError("expected <service id>=<IANA zone>, e.g. news=Europe/London");
  }
  return { ...previous, [service]: parseTimeZone(zone) };
}

/** nginx's `listen`: a port, or address:port (an IPv6 address in brackets). */
export function parseListenAddress(value: string): string {
  if (!/^((\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?\d{1,5}$/.test(value)) {
    throw new InvalidArgumentError("give a port or address:port, e.g. 127.0.0.1:8080 or [::]:80");
  }
  return value;
}

/** nginx's `server_name`: names separated by spaces, nothing that could end the directive. */
export function parseServerName(value: string): string {
  if (!/^[A-Za-z0-9_.*~^$\\ -]+$/.test(value) || value.trim() === "") {
    throw new InvalidArgumentError("give host names, e.g. spi.example.org (or _ for any)");
  }
  return value.trim();
}
