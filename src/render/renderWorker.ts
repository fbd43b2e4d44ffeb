import { parentPort } from "node:worker_threads";
import { programmesWithin } from "../schedule/scheduleBroadcaster.js";
import type { RenderRequest, RenderResponse } from "./renderInWorkers.js";
import { ProgrammeFragments } from "./renderProgrammeInformation.js";
import { renderServiceDay } from "./renderSite.js";

/**
 * A render worker (renderInWorkers.ts): lays out each service it is sent and renders the PI
 * documents asked for, as the main thread would (renderSite.ts's renderServiceDay).
 */
const port = parentPort;
if (!port)
  throw new Error("renderWorker.js runs as a worker thread, started by renderInWorkers.js");
port.on("message", ({ id, job }: RenderRequest) => {
  let response: RenderResponse;
  try {
    const { provider, service, span, dates, createdAt, episodes } = job;
    const programmes = programmesWithin(service, provider.cridAuthority, span, episodes);
    const fragments = new ProgrammeFragments();
    const documents = dates.map((date) =>
      renderServiceDay({ provider, service, programmes, date, createdAt, fragments }),
    );
    const counts = {
      elements: fragments.rendered,
      forEpisodes: fragments.renderedEpisodes,
      reused: fragments.reused,
    };
    response = { id, documents, counts };
  } catch (error) {
    response = {
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
  // A document in a buffer of its own is handed over, not copied (the renderer allocates each so).
  const own = "documents" in response ? response.documents : [];
  const transfer = own
    .filter((bytes) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    .map((bytes) => bytes.buffer as ArrayBuffer);
  port.postMessage(response, transfer);
});
