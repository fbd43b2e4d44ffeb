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
}

export interface BuildSummary extends PublishSummary {
  today: string;
  services: number;
  milliseconds: number;
}

/**
 * The whole pipeline: load → schedule → render → publish. Everything that can reject the input
 * runs before the first file is written, so a bad input leaves the published folder untouched.
 */
export async function buildSite({
  dataDir,
  outDir,
  now,
  publish,
}: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const broadcaster = await loadBroadcaster(dataDir);
  const scheduled = scheduleBroadcaster(broadcaster, now);
  const published = await publishSite(outDir, renderSite(scheduled, now), publish);
  return {
    ...published,
    today: scheduled.today,
    services: broadcaster.services.length,
    milliseconds: Math.round(performance.now() - started),
  };
}
