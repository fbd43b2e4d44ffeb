import { parseBroadcastBearer, serviceIdentifiersOf } from "../../load/formats/radiodnsBearer.js";
import { SPI_BASE } from "../../site/siteContract.js";
import { addDays, compactDate, dateRange, type PlainDate } from "../../time/plainDate.js";
import { localDateOf } from "../../time/wallClock.js";
import { fetchExactly } from "../../verify/fetchExactly.js";
import type { ImportNote } from "../importNote.js";
import { decodeXml } from "./decodeXml.js";
import { FeedError, notWellFormed } from "./feedError.js";
import type { FeedBudget } from "./feedLimits.js";
import type { FeedService } from "./feedModel.js";
import type { FeedDocument } from "./parseFeedDocuments.js";
import { readServiceInformation } from "./readServiceInformation.js";
import type { RunDeadline } from "./runDeadline.js";
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
  /** Bounds the whole run, every request first byte to last (RunDeadline). */
  timeoutMs: number;
}

/** Where RadioEPG 1.0 (EPG 1.x over RadioDNS) put its documents: XSI.xml, and PI by bearer. */
const EPG1_BASE = "radiodns/epg";
/** A host name as DNS spells it: letters, digits, hyphens, dots. */
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

/** A serviceIdentifier that is safe in a path: TS 102 818 §6.6's form, any case. */
const PATH_SAFE_ID = /^[A-Za-z0-9]{1,16}$/;

/** The API serves today±7 (seed §8). */
const WINDOW_DAYS = 7;
/** Requests in flight at once: gentle on a broadcaster's origin. */
const PARALLEL_REQUESTS = 4;

/**
 * A live SPI API's documents: its SI (keyed, with the stream URLs, when there is a key), then
 * every service's PI for each day of the window, by `id/<fqdn>/<serviceId>/<date>_PI.xml`. An
 * API with no SPI 3.1 SI but a RadioEPG 1.0 one (`radiodns/epg/XSI.xml`) is read by that, and
 * its PI by each service's first DAB or FM bearer (`radiodns/epg/dab/…/<date>_PI.xml`).
 * A PI that is not there (404) is noted; a refused key or an unreachable API is an error.
 */
export async function fetchLiveFeed(
  options: LiveFeedOptions,
  budget: FeedBudget,
  deadline: RunDeadline,
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
      if (deadline.passed()) throw new Error(deadline.spent);
      response = await fetchExactly(base, `${prefix}/${path}`, headers, {
        timeoutMs: deadline.left(),
        maxBytes: budget.limits.documentBytes,
      });
    } catch (error) {
      const why = deadline.passed() ? deadline.spent : (error as Error).message;
      throw new FeedError(`GET ${url}: ${why}`, notes);
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

  let si = await get(`${SPI_BASE}/SI.xml`);
  // An API that still publishes RadioEPG 1.0 (EPG 1.x) has its SI here, its PI by bearer path.
  const epg1 = si.status === 404 ? await get(`${EPG1_BASE}/XSI.xml`) : undefined;
  if (epg1?.status === 200) {
    notes.push({
      origin: epg1.url,
      message: `no SPI 3.1 SI (${si.url}: 404): this RadioEPG 1.0 (EPG 1.x) SI is imported, and PI is asked for by bearer path`,
    });
    si = epg1;
  }
  if (si.status !== 200) {
    throw new FeedError(
      `GET ${si.url}: ${si.status}${si.status === 403 ? " (the key was refused)" : ""}`,
      notes,
    );
  }
  const documents: FeedDocument[] = [{ source: si.url, path: si.path, text: si.text }];
  let services: FeedService[];
  try {
    services = readServiceInformation(parseXml(si.text, si.url)).services;
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw notWellFormed(error, notes);
    throw error;
  }
  const today = localDateOf(options.timeZone, options.now);
  const days = dateRange(addDays(today, -WINDOW_DAYS), addDays(today, WINDOW_DAYS));
  // Only ids of the forms RadioDNS defines go into a request path: a feed's text never does.
  const folders = services.flatMap((service): string[] => {
    if (si === epg1) {
      const bearer = service.bearers
        .map((b) => parseBroadcastBearer(b.id.toLowerCase()))
        .find((b) => b !== undefined);
      return bearer ? [`${EPG1_BASE}/${serviceIdentifiersOf(bearer)[0]}`] : [];
    }
    const { fqdn, serviceIdentifier } = service.radiodns ?? {};
    if (fqdn === undefined || serviceIdentifier === undefined) return [];
    if (!HOST_NAME.test(fqdn) || !PATH_SAFE_ID.test(serviceIdentifier)) {
      notes.push({
        origin: service.origin,
        message: `radiodns fqdn="${fqdn}" serviceIdentifier="${serviceIdentifier}" is no PI path: its PI is not asked for`,
      });
      return [];
    }
    return [`${SPI_BASE}/id/${fqdn}/${serviceIdentifier}`];
  });
  const requests: { path: string; day: PlainDate }[] = folders.flatMap((folder) =>
    days.map((day) => ({ day, path: `${folder}/${compactDate(day)}_PI.xml` })),
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
