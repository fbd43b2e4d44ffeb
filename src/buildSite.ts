import { type ApiKeys, type KeySources, resolveApiKeys } from "./edge/apiKeys.js";
import { edgeSiteOf, renderEdgeFiles } from "./edge/edgeFiles.js";
import { loadBroadcaster } from "./load/loadBroadcaster.js";
import { type PublishOptions, type PublishSummary, publishSite } from "./publish/publishSite.js";
import { renderSite } from "./render/renderSite.js";
import { scheduleBroadcaster } from "./schedule/scheduleBroadcaster.js";

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  /** The build's clock, UTC ms: decides today's date and every creationTime. */
  now: number;
  /** How to wait for another build's lock, and where to report progress. */
  publish?: PublishOptions;
  /** API keys for the edge rules; without them, the data folder's demo key (if any). */
  keys?: KeySources;
}

export interface BuildSummary extends PublishSummary {
  today: string;
  services: number;
  milliseconds: number;
  /** Where the edge rules' key digests came from (never the keys themselves). */
  keys: Pick<ApiKeys, "origin" | "demo"> & { count: number };
}

/**
 * The whole pipeline: load → schedule → render → publish. Everything that can reject the input
 * runs before the first file is written, so a bad input leaves the published folder untouched.
 */
export async function buildSite({
  dataDir,
  outDir,
  now,
  keys = {},
  publish,
}: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const broadcaster = await loadBroadcaster(dataDir);
  const scheduled = scheduleBroadcaster(broadcaster, now);
  const apiKeys = await resolveApiKeys(dataDir, keys);
  const edgeFiles = await renderEdgeFiles(
    edgeSiteOf(broadcaster, apiKeys.digests),
    broadcaster.provider.radiodnsHost,
  );
  // The edge files go last: the worker never names a service whose documents are not yet written.
  function* documents() {
    yield* renderSite(scheduled, now);
    yield* edgeFiles;
  }
  const published = await publishSite(outDir, documents(), publish);
  return {
    ...published,
    today: scheduled.today,
    services: broadcaster.services.length,
    milliseconds: Math.round(performance.now() - started),
    keys: { origin: apiKeys.origin, demo: apiKeys.demo, count: apiKeys.digests.length },
  };
}
