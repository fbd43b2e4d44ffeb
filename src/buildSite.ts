import { type ApiKeys, type KeySources, resolveApiKeys } from "./edge/apiKeys.js";
import { edgeSiteOf, renderEdgeFiles } from "./edge/edgeFiles.js";
import { InputError, type InputProblem } from "./load/inputProblem.js";
import { type PublishOptions, type PublishSummary, publishSite } from "./publish/publishSite.js";
import { renderSite } from "./render/renderSite.js";
import { validateData } from "./validateData.js";

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  /** The build's clock, UTC ms: decides today's date and every creationTime. */
  now: number;
  /** How to wait for another build's lock, and where to report progress. */
  publish?: PublishOptions;
  /** API keys for the edge rules; without them, the data folder's demo key (if any). */
  keys?: KeySources;
  /** Publish the services without errors even when others have some (`--keep-going`). */
  keepGoing?: boolean;
}

export interface BuildSummary extends PublishSummary {
  today: string;
  services: number;
  milliseconds: number;
  /** Where the edge rules' key digests came from (never the keys themselves). */
  keys: Pick<ApiKeys, "origin" | "demo"> & { count: number };
  /** Warnings, and with keepGoing the errors of the services left out. */
  problems: InputProblem[];
  /** Services left out for their errors (only ever with keepGoing). */
  brokenServices: string[];
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
  keepGoing = false,
}: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  const { scheduled, problems, brokenServices } = await validateData(dataDir, now);
  const hasErrors = problems.some((p) => p.severity === "error");
  if (!scheduled || scheduled.services.length === 0 || (hasErrors && !keepGoing)) {
    throw new InputError(problems);
  }
  const { broadcaster } = scheduled;
  const apiKeys = await resolveApiKeys(dataDir, keys);
  const edgeFiles = await renderEdgeFiles(
    edgeSiteOf(broadcaster, apiKeys.digests),
    broadcaster.provider.radiodnsHost,
  );
  const site = renderSite(scheduled, now);
  // The edge files go last: the worker never names a service whose documents are not yet written.
  function* documents() {
    yield* site;
    yield* edgeFiles;
  }
  const published = await publishSite(outDir, documents(), publish);
  return {
    ...published,
    today: scheduled.today,
    services: broadcaster.services.length,
    milliseconds: Math.round(performance.now() - started),
    keys: { origin: apiKeys.origin, demo: apiKeys.demo, count: apiKeys.digests.length },
    problems,
    brokenServices,
  };
}
