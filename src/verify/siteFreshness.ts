import type { IncomingHttpHeaders } from "node:http";
import { addDays, compactDate, type PlainDate } from "../time/plainDate.js";

const DAY_MS = 86_400_000;

/** How late the site is, and what shows it. */
export interface Staleness {
  /** Nights the last build is behind a nightly one; 0 when on time. */
  nightsLate: number;
  detail: string;
}

/**
 * When a document was made: its `creationTime` (the build's clock), else the answer's
 * Last-Modified, which is only the file's time (a copy without its times is "new"); undefined
 * when neither says.
 */
export function madeAt(body: string, headers: IncomingHttpHeaders): number | undefined {
  const created = Date.parse(/\bcreationTime="([^"]+)"/.exec(body.slice(0, 4096))?.[1] ?? "");
  const modified = Date.parse(String(headers["last-modified"] ?? ""));
  const made = Number.isFinite(created) ? created : modified;
  return Number.isFinite(made) ? made : undefined;
}

/**
 * How many nights late a site is, from what a client can see. A build adds the day today + 8
 * (the extra day the edge does not serve yet) and each night the window moves on by one, so a
 * site built k nights ago ends k − 1 days short of today + 7, and its newest document was made
 * about k days ago. The larger of the two counts. A site one night late still serves the whole
 * window and made its newest document the night before, as an on-time site did: no client can
 * tell it apart from one on time until the next night, when it ends a day short.
 *
 * `daysShort`: how many days the services' PI stops short of the far end (0: present).
 * `newest`: the latest madeAt of the documents fetched.
 */
export function staleness(
  farEnd: PlainDate,
  daysShort: number,
  servicesShort: string[],
  newest: number | undefined,
  now: number,
): Staleness {
  const byWindow = daysShort > 0 ? daysShort + 1 : 0;
  const ageDays = newest === undefined ? 0 : Math.floor((now - newest) / DAY_MS);
  const byAge = Math.max(0, ageDays - 1);
  const made =
    newest === undefined
      ? "no document says when it was made"
      : `newest document made ${new Date(newest).toISOString().replace(".000", "")}, ${ageDays} day${ageDays === 1 ? "" : "s"} ago`;
  const short =
    daysShort === 0
      ? `the window's far end (${compactDate(farEnd)}) is there for every service`
      : `the PI of ${servicesShort.length === 1 ? "" : `${servicesShort.length} services, e.g. `}${servicesShort[0]} ends ${daysShort} day${daysShort === 1 ? "" : "s"} before the window's far end (${compactDate(farEnd)}, today + 7)`;
  return { nightsLate: Math.max(byWindow, byAge), detail: `${short}; ${made}` };
}

/**
 * The site's today, which is the provider's and which verify does not know: the window starts
 * 7 days before it, and the edge answers 404 a day earlier. `present(date)` says whether the
 * site serves a PI for that date; the site's today is one of UTC yesterday, today, tomorrow.
 */
export async function siteToday(
  utcToday: PlainDate,
  present: (date: PlainDate) => Promise<boolean>,
): Promise<PlainDate | undefined> {
  for (const offset of [-1, 0, 1]) {
    if (await present(addDays(utcToday, offset - 7))) return addDays(utcToday, offset);
  }
  return undefined;
}
