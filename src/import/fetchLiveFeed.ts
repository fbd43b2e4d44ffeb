import { SPI_BASE } from "../site/siteContract.js";
import { addDays, compactDate, dateRange, type PlainDate } from "../time/plainDate.js";
import { localDateOf } from "../time/wallClock.js";
import { fetchExactly } from "../verify/fetchExactly.js";
import { decodeXml } from "./decodeXml.js";
import { FeedError, notWellFormed } from "./feedError.js";
import type { FeedBudget } from "./feedLimits.js";
import type { ImportNote } from "./importNote.js";
import type { FeedDocument } from "./parseFeedDocuments.js";
import { readServiceInformation } from "./readServiceInformation.js";
import { parseXml, XmlSyntaxError } from "./xmlTree.js";

export interface LiveFeedOptions {
  /** The API root, e.g. https://spi.example.org. */
  baseUrl: string;
  /** Sent as `Authorization: ClientIdentifier <key>`: the keyed SI and PI need it. */
  key: string | undefined;
  /** The clock, UTC ms: the API serves PI for today±7. */
  now: number;
  /** Today is the date in this zone. */
  timeZone: string;
  /** Bounds each request as a whole, first byte to last. */
  timeoutMs: number;
}

/** The API serves today±7 (seed §8). */
const WINDOW_DAYS = 7;
/** Requests in flight at once: gentle on a broadcaster's origin. */
const PARALLEL_REQUESTS = 4;

/**
 * A live SPI API's documents: its SI (keyed, with the stream URLs, when there is a key), then
 * every service's PI for each day of the window, by `id/<fqdn>/<serviceId>/<date>_PI.xml`.
 * A PI that is not there (404) is noted; a refused key or an unreachable API is an error.
 */
export async function fetchLiveFeed(
  options: LiveFeedOptions,
  budget: FeedBudget,
  notes: ImportNote[],
): Promise<FeedDocument[]> {
  const base = new URL(options.baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  const headers: Record<string, string> = {
    "User-Agent": "spi-static import",
    ...(options.key ? { Authorization: `ClientIdentifier ${options.key}` } : {}),
  };
  const get = async (path: string) => {
    const url = `${base.origin}${prefix}/${path}`;
    let response: Awaited<ReturnType<typeof fetchExactly>>;
    try {
      response = await fetchExactly(base, `${prefix}/${path}`, headers, {
        timeoutMs: options.timeoutMs,
        maxBytes: budget.limits.documentBytes,
      });
    } catch (error) {
      throw new FeedError(`GET ${url}: ${(error as Error).message}`, notes);
    }
    if (response.status !== 200) return { url, path, status: response.status, text: "" };
    budget.take(response.bytes.length, url);
    try {
      return { url, path, status: response.status, text: decodeXml(response.bytes, url) };
    } catch (error) {
      if (error instanceof XmlSyntaxError) throw notWellFormed(error, notes);
      throw error;
    }
  };

  const si = await get(`${SPI_BASE}/SI.xml`);
  if (si.status !== 200) {
    throw new FeedError(
      `GET ${si.url}: ${si.status}${si.status === 403 ? " (the key was refused)" : ""}`,
    );
  }
  const documents: FeedDocument[] = [{ source: si.url, path: si.path, text: si.text }];
  let services: { fqdn: string; serviceIdentifier: string }[];
  try {
    services = readServiceInformation(parseXml(si.text, si.url)).services.flatMap((s) =>
      s.radiodns ? [s.radiodns] : [],
    );
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw notWellFormed(error, notes);
    throw error;
  }
  const today = localDateOf(options.timeZone, options.now);
  const days = dateRange(addDays(today, -WINDOW_DAYS), addDays(today, WINDOW_DAYS));
  const requests: { path: string; day: PlainDate }[] = services.flatMap(
    ({ fqdn, serviceIdentifier }) =>
      days.map((day) => ({
        day,
        path: `${SPI_BASE}/id/${fqdn}/${serviceIdentifier}/${compactDate(day)}_PI.xml`,
      })),
  );
  const answers: (FeedDocument | undefined)[] = new Array(requests.length);
  let next = 0;
  // Once one request has failed the import stops: the other workers ask for nothing more.
  let failed = false;
  const worker = async () => {
    for (let i = next++; i < requests.length && !failed; i = next++) {
      const request = requests[i];
      if (!request) continue;
      const answer = await get(request.path);
      if (answer.status === 200) {
        answers[i] = { source: answer.url, path: answer.path, text: answer.text };
      } else if (answer.status === 401 || answer.status === 403) {
        throw new FeedError(
          `GET ${answer.url}: ${answer.status}: PI needs a valid key (--key, --keys-file or $SPI_IMPORT_KEY)`,
        );
      } else {
        notes.push({ origin: answer.url, message: `${answer.status}: no PI for ${request.day}` });
      }
    }
  };
  await Promise.all(
    Array.from({ length: PARALLEL_REQUESTS }, () =>
      worker().catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
  return [...documents, ...answers.filter((d): d is FeedDocument => d !== undefined)];
}
