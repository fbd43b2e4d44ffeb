/**
 * src/build/ is the engine that remembers, and the only code that reads or writes
 * out/_spi-static/ (what belongs here and what in src/publish/: docs/maintainers/engine.md).
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { debug } from "../debug/debugLog.js";
import { type ApiKeys, type KeySources, resolveApiKeys } from "../edge/apiKeys.js";
import { edgeSiteOf, renderEdgeFiles } from "../edge/edgeFiles.js";
import type { LoadReport } from "../load/loadBroadcaster.js";
import type { Broadcaster, Service } from "../load/model/broadcaster.js";
import { publishedFqdns } from "../load/model/broadcaster.js";
import { InputError, type InputProblem } from "../load/text/inputProblem.js";
import type { DataReport } from "../loadAndSchedule.js";
import { withServiceEntries } from "../render/carriedServices.js";
import { serviceInputs, siteInputs, withInputs } from "../render/documentInputs.js";
import { renderSite } from "../render/renderSite.js";
import { spanDependence } from "../schedule/rollCheck.js";
import {
  checkServices,
  publishedDays,
  type ScheduledBroadcaster,
  type ScheduleReport,
} from "../schedule/scheduleBroadcaster.js";
import type { LayoutSpan, ServiceCheck } from "../schedule/serviceCheck.js";
import { fqdnOfKey, KEYED_SI_PATH, OPEN_SI_PATH, type SiteDocument } from "../site/siteContract.js";
import type { PlainDate } from "../time/plainDate.js";
import { type BuildSources, fingerprintProgram, readBuildSources } from "./buildFingerprint.js";
import type { BuildLockOptions } from "./buildLock.js";
import {
  afterHashing,
  type BuildPlan,
  type DocumentDecision,
  describeCheck,
  type PlanState,
  PlanTally,
  planBuild,
  planDocument,
  type ServicePlan,
  type SettledDecision,
} from "./buildPlan.js";
import { recordedSources } from "./buildStamp.js";
import { type BuildState, readBuildState } from "./buildState.js";
import { BuildSteps } from "./buildSteps.js";
import { type CheckRecord, openCheckRecord } from "./checkRecord.js";
import { type DigestRecord, openDigestRecord } from "./digestRecord.js";
import { observeState, type SeenFile, seeUnchanged } from "./fileState.js";
import { refuseHostChange } from "./hostChange.js";
import { openInputCacheFolder } from "./inputCacheFolder.js";
import { describeChanges, type InputChanges, inputChanges } from "./inputChanges.js";
import { type InputsRecord, readInputsRecord } from "./inputsRecord.js";
import { type KeptServices, readKeptServices, recordServiceRoutes } from "./keptServices.js";
import { type PlannedLogo, planLogoDocuments } from "./plannedLogos.js";
import {
  findUpToDateSite,
  holdOutputFolder,
  type PublishableDocument,
  type PublishOptions,
  type PublishSummary,
  publishSite,
} from "./publishSite.js";
import { RenderAhead } from "./renderAhead.js";
import { checkReuse, type ReuseSample, sampleDate } from "./reuseCheck.js";
import { openStagingFolder, removeStaleStaging, type StagingFolder } from "./stagingFolder.js";
import { type ShortcutNotes, STATE_DIR } from "./stateFolder.js";

export interface BuildOptions {
  dataDir: string;
  outDir: string;
  /** The build's clock, UTC ms: decides today's date and every creationTime. */
  now: number;
  /** How to wait for another build's lock, and where to report progress. */
  publish?: { lock?: BuildLockOptions; onProgress?: PublishOptions["onProgress"] };
  /** API keys for the edge rules; without them, the data folder's demo key (if any). */
  keys?: KeySources;
  /** Publish the services without errors even when others have some (`--keep-going`). */
  keepGoing?: boolean;
  /** Render and compare every document even when the published files are up to date. */
  force?: boolean;
  /** Publish under a new radiodnsHost, deleting the PI files under the old one (`--change-host`). */
  changeHost?: boolean;
  /** Threads that may parse data files at once; 1 keeps to the main thread. Unset: every core. */
  jobs?: number | undefined;
  /** Sees the validated, laid-out data this build renders (the EPG preview shows the same). */
  onValidated?: (report: DataReport) => void;
}

export interface BuildSummary extends PublishSummary {
  /** Nothing to do: the last build used the same inputs on the same local day (see builtAt). */
  upToDate: boolean;
  /** When the published files were built: now, or the up-to-date build's time. */
  builtAt: string;
  today: string;
  services: number;
  milliseconds: number;
  /** Where the edge rules' key digests came from (never the keys themselves). */
  keys: Pick<ApiKeys, "origin" | "demo"> & { count: number };
  /** Warnings, and with keepGoing the errors of the services left out. */
  problems: InputProblem[];
  /** Services left out for their errors (only ever with keepGoing). */
  brokenServices: string[];
  /** Those of them whose last published PI files and SI entry were kept. */
  keptServices: string[];
  /**
   * Damaged records that only save work (ignored, the work done, written anew), and reused
   * documents the reuse check found otherwise (then everything was rendered), each by name.
   */
  notes: string[];
}

/**
 * The whole pipeline, under the lock (buildLocked: its steps). Everything that can reject the
 * input runs before the first file is written, so a bad input leaves out/ untouched.
 */
export async function buildSite(options: BuildOptions): Promise<BuildSummary> {
  const { dataDir, outDir, keys = {}, publish } = options;
  const started = performance.now();
  const apiKeys = await resolveApiKeys(dataDir, keys);
  // One build at a time: every record it reads and writes is read and written under the lock.
  const firstBuild = !existsSync(outDir);
  const release = await holdOutputFolder(outDir, publish?.lock);
  let summary: BuildSummary;
  try {
    summary = await buildLocked(started, apiKeys, options).catch(async (error: unknown) => {
      if (!(error instanceof ReusedWrongly)) throw error;
      // What was reused cannot be trusted tonight: everything is rendered, nothing is written
      // before (the check runs before the publish stage).
      const rebuilt = await buildLocked(started, apiKeys, { ...options, force: true });
      return { ...rebuilt, notes: [...error.notes, ...rebuilt.notes] };
    });
  } catch (error) {
    // A lock that cannot be removed is broken by the next build (its holder is gone): it never
    // hides why this build failed.
    await release().catch(() => {});
    // A refused first build leaves no out/ behind: all in it is what the lock's taking made.
    if (firstBuild) removeStateOnly(outDir);
    throw error;
  }
  await release();
  return summary;
}

/** Removes out/ when it holds nothing but the bookkeeping folder. */
function removeStateOnly(outDir: string): void {
  try {
    const names = readdirSync(outDir);
    if (names.some((name) => name !== STATE_DIR)) return;
    rmSync(outDir, { recursive: true, force: true });
  } catch {
    // Left as it is: it holds only bookkeeping.
  }
}

/** What the "read state" step gives the steps after it. */
interface StateRead {
  state: BuildState;
  /** Damaged records that only save work, said in the summary. */
  notes: ShortcutNotes;
  known: DigestRecord;
  sources: BuildSources;
}

/**
 * One build under the lock: its named steps, each timed (`SPI_STATIC_DEBUG=timing`,
 * buildSteps.ts). Until the build publishes, what it makes waits in its staging folder: the input
 * cache entries (moved in by the commit step) and the documents rendered ahead.
 */
async function buildLocked(
  started: number,
  apiKeys: ApiKeys,
  options: BuildOptions,
): Promise<BuildSummary> {
  const { outDir, now } = options;
  const steps = new BuildSteps();
  const read = await steps.run("read state", () => readState(options, apiKeys));
  const upToDate = await steps.run("up to date?", () => findUpToDate(options, read));
  const milliseconds = () => Math.round(performance.now() - started);
  if (upToDate) return { ...upToDate, milliseconds: milliseconds() };
  removeStaleStaging(outDir);
  const staging = openStagingFolder(outDir);
  try {
    const { loaded, cache } = await steps.run("load", () => load(options, read, staging));
    const planned = await steps.run("plan", () => plan(options, read, loaded.broadcaster));
    const checked = await steps.run("check", () => check(options, loaded, planned, staging));
    const mismatches = await steps.run("reuse check", () =>
      checkReuse(outDir, now, checked.scheduled, checked.checks, (id) => sampleOf(checked, id)),
    );
    if (mismatches.length > 0) throw new ReusedWrongly(mismatches);
    const published = await steps.run("publish", () =>
      publish(options, apiKeys, read, checked, steps),
    );
    // Only now: a build that stops before publishing leaves out/ as it was, the cache included.
    await steps.run("commit", () => {
      cache.commit();
      staging.drop();
    });
    return { ...published, milliseconds: milliseconds() };
  } catch (error) {
    staging.drop(true);
    throw error;
  }
}

/** The state, read once under the lock (publishSite writes it), and the build's sources. */
function readState({ outDir, dataDir, force }: BuildOptions, apiKeys: ApiKeys): StateRead {
  const notes: ShortcutNotes = [];
  const state = readBuildState(outDir, notes);
  // --force trusts nothing an earlier build kept: every data file is hashed and parsed again.
  const known = openDigestRecord(state, Date.now(), { readEarlier: !force });
  const sources = readBuildSources({ dataDir, keyDigests: apiKeys.digests, known });
  return { state, notes, known, sources };
}

/** The summary of a build that has nothing to do: the last one's files are still intact. */
function findUpToDate(
  { outDir, now, force }: BuildOptions,
  { state, sources }: StateRead,
): Omit<BuildSummary, "milliseconds"> | undefined {
  if (force) {
    debug("stamp", () => `building ${outDir}: --force skips the up-to-date check`);
    return undefined;
  }
  const site = findUpToDateSite<StampedReport>(outDir, sources, now, state);
  return (
    site && {
      ...site.report,
      upToDate: true,
      rendered: 0,
      reused: 0,
      written: 0,
      unchanged: site.files.length,
      removed: 0,
      foreign: site.foreign,
      brokenServices: [],
      keptServices: [],
      notes: [],
    }
  );
}

/** The load stage, its parsed files cached in out/ (inputCacheFolder.ts). */
async function load(
  { outDir, dataDir, force, jobs }: BuildOptions,
  { known }: StateRead,
  staging: StagingFolder,
) {
  // Imported here: an up-to-date build never needs the parsers and schemas (half its run time).
  const { loadBroadcaster } = await import("../load/loadBroadcaster.js");
  const readEarlier = !force;
  const cache = openInputCacheFolder(outDir, fingerprintProgram(), staging, { readEarlier });
  const parallel = jobs ?? availableParallelism();
  return { loaded: await loadBroadcaster(dataDir, { cache, known, jobs: parallel }), cache };
}

/** The plan (buildPlan.ts), from the records, before the schedule stage runs. */
function plan(
  { outDir, dataDir, now, force = false }: BuildOptions,
  { state, sources }: StateRead,
  broadcaster: Broadcaster | undefined,
): Planned | undefined {
  if (!broadcaster) return undefined;
  const checkRecord = openCheckRecord(state, fingerprintProgram(), dataDir);
  const changes = inputChanges(recordedSources(state), sources);
  return planFor(broadcaster, now, outDir, { state, checkRecord, changes, force });
}

/** What the check step found: the services laid out, and everything the publish step needs. */
interface Checked extends DataReport {
  scheduled: ScheduledBroadcaster;
  planned: Planned;
  ahead: RenderAhead;
  hasErrors: boolean;
}

/**
 * The schedule stage under the plan; everything that can reject the input has run by its end,
 * before the first file is written.
 */
async function check(
  { now, dataDir, keepGoing, onValidated }: BuildOptions,
  loaded: LoadReport,
  planned: Planned | undefined,
  staging: StagingFolder,
): Promise<Checked> {
  const { dataReport } = await import("../loadAndSchedule.js");
  const ahead = new RenderAhead(now, staging);
  const validated = dataReport(loaded, planned && schedule(planned, now, ahead));
  onValidated?.(validated);
  const { scheduled, problems } = validated;
  const hasErrors = problems.some((p) => p.severity === "error");
  if (!planned || !scheduled || scheduled.services.length === 0 || (hasErrors && !keepGoing)) {
    throw new InputError(problems, dataDir);
  }
  return { ...validated, scheduled, planned, ahead, hasErrors };
}

/**
 * The publish step: the records go into the state publishSite writes (a build that stops before
 * publishing writes none), then every document, rendered as it is published (the render step).
 */
async function publish(
  options: BuildOptions,
  apiKeys: ApiKeys,
  { state, known, sources, notes }: StateRead,
  checked: Checked,
  steps: BuildSteps,
): Promise<Omit<BuildSummary, "milliseconds">> {
  const { outDir, now, keepGoing } = options;
  const { scheduled, problems, brokenServices, planned, ahead } = checked;
  const { broadcaster } = scheduled;
  const { provider } = broadcaster;
  // A service that broke keeps last night's PI files, SI entry and routes: one typo never
  // takes it off air.
  const broken = keepGoing ? brokenServices : [];
  const kept = readKeptServices(outDir, state, provider.radiodnsHost, broken);
  const documents = await siteDocuments(options, apiKeys, state, checked, kept);
  const report: StampedReport = {
    builtAt: new Date(now).toISOString(),
    today: scheduled.today,
    services: broadcaster.services.length,
    keys: { origin: apiKeys.origin, demo: apiKeys.demo, count: apiKeys.digests.length },
    problems,
  };
  // Only a build without errors may stand in for the next one: --keep-going reports must repeat.
  const { timeZone } = provider;
  const stamp = checked.hasErrors ? undefined : { sources, timeZone, today: report.today, report };
  known.commit();
  planned.checkRecord.commit(provider, scheduled.span, checked.checks);
  recordServiceRoutes(state, broadcaster.services, kept);
  const published = await publishSite(outDir, steps.during("render", documents.all), {
    onProgress: options.publish?.onProgress,
    stamp,
    keep: kept.paths,
    now,
    state,
  });
  debug(
    "render",
    () =>
      `${ahead.taken} PI documents taken as rendered ahead during the check ` +
      `(${ahead.rendered} rendered ahead)`,
  );
  debug("plan", () => documents.tally.describe());
  const keptServices = [...kept.routes.keys()];
  return { ...published, ...report, upToDate: false, brokenServices, keptServices, notes };
}

/**
 * Everything the publish step writes, decided before the first file is: the host checked, the
 * edge files rendered, the logos planned (src/logos, issue 27), the SI entries of broken
 * services carried over.
 */
async function siteDocuments(
  { outDir, now, changeHost = false }: BuildOptions,
  apiKeys: ApiKeys,
  state: BuildState,
  checked: Checked,
  kept: KeptServices,
) {
  const { broadcaster } = checked.scheduled;
  const keptRoutes = [...kept.routes.values()];
  const fqdns = [...publishedFqdns(broadcaster), ...keptRoutes.map(({ key }) => fqdnOfKey(key))];
  refuseHostChange(outDir, state.owned, broadcaster.provider.radiodnsHost, changeHost, [
    ...new Set(fqdns),
  ]);
  const edgeFiles = await renderEdgeFiles(edgeSiteOf(broadcaster, apiKeys.digests, keptRoutes));
  const program = fingerprintProgram();
  const si = siteInputs(program, broadcaster.provider, broadcaster.services);
  const planState = checked.planned.state;
  const logos = await planLogoDocuments(outDir, planState, state, broadcaster, now);
  const carriedTo = new Map([
    [OPEN_SI_PATH, kept.openSi],
    [KEYED_SI_PATH, kept.keyedSi],
  ]);
  const tally = new PlanTally();
  const all = documentsToPublish({
    outDir,
    now,
    checked,
    tally,
    logos,
    carriedTo,
    serviceInformation: si.serviceInformation,
    edgeFiles,
  });
  return { all, tally };
}

/**
 * What the build publishes, in order, as the plan decided it: the logos, the PI documents reused
 * or rendered ahead, then what the render stage renders (PI, then SI), the SI reused, and the
 * edge files last: the worker never names a service whose documents are not yet written.
 */
function* documentsToPublish(site: {
  outDir: string;
  now: number;
  checked: Checked;
  tally: PlanTally;
  logos: readonly PlannedLogo[];
  carriedTo: ReadonlyMap<string, string[]>;
  serviceInformation: string;
  edgeFiles: readonly SiteDocument[];
}): Generator<PublishableDocument> {
  const { checked, tally, carriedTo } = site;
  const note = noting(tally);
  for (const { document, decision } of site.logos) {
    note(document.path, decision);
    yield document;
  }
  const inputsOf = new Map<string, string>();
  const programmeInformation = new Map<string, PlainDate[]>();
  yield* programmeInformationDocuments(checked, note, programmeInformation, inputsOf);
  const reusedSi = new Map<string, SeenFile>();
  const serviceInformation: string[] = [];
  for (const [path, carried] of carriedTo) {
    const inputs = withInputs(site.serviceInformation, carried);
    const decision = note(path, settle(site.outDir, path, planSi(checked.planned, path, inputs)));
    inputsOf.set(path, inputs);
    if (decision.render) serviceInformation.push(path);
    else reusedSi.set(path, decision.file);
  }
  const toRender = { programmeInformation, serviceInformation };
  for (const { path, content } of renderSite(checked.scheduled, site.now, toRender)) {
    const carried = carriedTo.get(path) ?? [];
    const withCarried = carried.length > 0 ? withServiceEntries(content, carried) : content;
    yield { path, inputs: inputsOf.get(path), content: withCarried };
  }
  for (const [path, file] of reusedSi) {
    yield { path, inputs: inputsOf.get(path) ?? "", reused: file };
  }
  yield* site.edgeFiles;
}

/** Counts a settled decision, and says why a document is rendered (SPI_STATIC_DEBUG=plan). */
function noting(tally: PlanTally) {
  return (path: string, decision: SettledDecision): SettledDecision => {
    tally.count(decision);
    if (decision.render) {
      const { why, detail } = decision;
      debug("plan", () => `${path}: rendered: ${why}${detail ? `: ${detail}` : ""}`);
    }
    return decision;
  };
}

/**
 * The PI documents reused or rendered ahead, as the plan settled them; those left to the render
 * stage are put into `toRender` (their days by service) and `inputsOf`.
 */
function* programmeInformationDocuments(
  { scheduled, planned, ahead }: Checked,
  note: ReturnType<typeof noting>,
  toRender: Map<string, PlainDate[]>,
  inputsOf: Map<string, string>,
): Generator<PublishableDocument> {
  for (const { service } of scheduled.services) {
    const days: PlainDate[] = [];
    for (const { path, date, inputs, decision } of planned.documentsOf(service.id)) {
      // A file whose state changed is hashed here, as it is published (the I/O at the edge).
      const settled = note(path, planned.settle(path, decision));
      const content = settled.render ? ahead.take(path) : undefined;
      if (!settled.render) yield { path, inputs, reused: settled.file };
      else if (content) yield { path, inputs, content };
      else {
        days.push(date);
        inputsOf.set(path, inputs);
      }
    }
    if (days.length > 0) toRender.set(service.id, days);
  }
}

/** An SI document's decision: its inputs name the services published (and those carried). */
function planSi(planned: Planned, path: string, inputs: string): DocumentDecision {
  return planDocument(
    planned.state,
    path,
    inputs,
    () =>
      (planned.state.changes && describeChanges(planned.state.changes)) ??
      "the services published, or the entries kept for broken ones, changed",
  );
}

/** The plan of a build, with the state it was made from. */
interface Planned {
  broadcaster: Broadcaster;
  state: PlanState;
  plan: BuildPlan;
  checkRecord: CheckRecord;
  /** A service's planned PI documents. */
  documentsOf(id: string): ServicePlan["documents"];
  /** A PI document's decision settled (settle), hashing its file once at most. */
  settle(path: string, decision: DocumentDecision): SettledDecision;
  today: PlainDate;
  /** The published days. */
  dates: readonly PlainDate[];
}

/**
 * Gathers what the plan is made from (the records, the published files' states) and makes it:
 * the I/O before the pure planner (buildPlan.ts).
 */
function planFor(
  broadcaster: Broadcaster,
  now: number,
  outDir: string,
  given: { state: BuildState; checkRecord: CheckRecord; changes: InputChanges; force: boolean },
): Planned {
  const { provider } = broadcaster;
  const { today, dates, span } = publishedDays(provider.timeZone, now);
  const { checkRecord, force } = given;
  const recorded: InputsRecord = force ? new Map() : readInputsRecord(given.state);
  const journaled = new Set(given.state.journaledVersions.keys());
  const observed = observedStates(outDir, recorded);
  const checks = checkRecord.recorded;
  const state: PlanState = { force, recorded, checks, journaled, observed, changes: given.changes };
  const program = fingerprintProgram();
  const toPlan = broadcaster.services.map((service) => ({
    id: service.id,
    fqdn: service.radiodns.fqdn,
    serviceIdentifier: service.radiodns.serviceIdentifier,
    ...withSpan(serviceInputs(program, provider, service), service, span),
    checkKey: checkRecord.keyOf(provider, service),
    span,
  }));
  const plan = planBuild(state, toPlan, dates);
  for (const { id, check } of plan.services) debug("plan", () => `${id}: ${describeCheck(check)}`);
  const byId = new Map(plan.services.map((service) => [service.id, service.documents]));
  const settled = new Map<string, SettledDecision>();
  const documentsOf = (id: string) => byId.get(id) ?? [];
  return {
    broadcaster,
    state,
    plan,
    checkRecord,
    today,
    dates,
    documentsOf,
    settle: (path, decision) => {
      const found = settled.get(path) ?? settle(outDir, path, decision);
      settled.set(path, found);
      return found;
    },
  };
}

/** The published files' states now, of those the last build recorded. */
function observedStates(outDir: string, recorded: InputsRecord): Map<string, string> {
  const observed = new Map<string, string>();
  for (const path of recorded.keys()) {
    const seen = observeState(join(outDir, path));
    if (seen !== undefined) observed.set(path, seen);
  }
  return observed;
}

/**
 * A service's documents' inputs, with the span when its programmes near the span's ends may
 * depend on it (schedule/rollCheck.ts spanDependence): such a service's documents are rendered
 * again every night instead of reused, so a nightly writes what --force writes.
 */
function withSpan(
  inputs: string,
  service: Service,
  span: LayoutSpan,
): { inputs: string; spanDependence?: string } {
  const why = spanDependence(service, span);
  if (why === undefined) return { inputs };
  debug("plan", () => `${service.id}: its PI documents depend on the days laid out (${why})`);
  return { inputs: withInputs(inputs, [`span ${span.from} ${span.to}`]), spanDependence: why };
}

/** A decision settled: a document whose file's state changed is reused if its bytes did not. */
function settle(outDir: string, path: string, decision: DocumentDecision): SettledDecision {
  if (decision.render !== "hash") return decision;
  return afterHashing(decision, seeUnchanged(join(outDir, path), decision.recorded));
}

/**
 * The schedule stage under the plan: the services whose recorded check the plan reuses are
 * taken as recorded, those it rolls on are checked day by day, and each service laid out (in
 * full or its new days) has the documents the plan renders of the days laid out rendered from
 * that layout at once (renderAhead.ts).
 */
function schedule(planned: Planned, now: number, ahead: RenderAhead): ScheduleReport {
  const { broadcaster, plan, documentsOf } = planned;
  const recorded = new Map<string, ServiceCheck>();
  const rolled = new Map<string, ServiceCheck>();
  for (const { id, check } of plan.services) {
    if ("reuse" in check) recorded.set(id, check.reuse);
    else if ("roll" in check) rolled.set(id, check.roll);
  }
  const steps = checkServices(broadcaster, now, { recorded, rolled });
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    // A service checked day by day has the programmes of its new days only. One whose every
    // document renders (a first build, an edit) is left to the render stage: staging them all
    // passed the whole site through the disk twice (first build at 100 services: +2.3 s of
    // system CPU, no less user CPU: docs/maintainers/engine.md).
    const { service, documentDates } = step.value;
    const planned = documentsOf(service.id);
    const toRender = planned.filter(
      ({ decision, date }) => decision.render === true && documentDates.includes(date),
    );
    if (toRender.length < planned.length)
      ahead.renderFrom(broadcaster.provider, step.value, toRender);
  }
}

/** The reused PI document of a service that the reuse check renders again tonight. */
function sampleOf({ planned }: Checked, id: string): ReuseSample | undefined {
  const byDate = new Map(planned.documentsOf(id).map((document) => [document.date, document]));
  const date = sampleDate(id, planned.today, planned.dates, (date) => {
    const document = byDate.get(date);
    return document?.decision.render === false || document?.decision.render === "hash"
      ? planned.settle(document.path, document.decision).render === false
      : false;
  });
  const path = date && byDate.get(date)?.path;
  if (date === undefined || path === undefined) return undefined;
  debug("plan", () => `${id}: reuse check: renders ${path} again and compares it`);
  return { path, date };
}

/**
 * Reused documents that this program renders otherwise: the record of what they are made from
 * missed a change. Thrown before anything is written; buildSite then builds as with --force.
 */
class ReusedWrongly extends Error {
  readonly notes: string[];

  constructor(mismatches: readonly string[]) {
    super(`${mismatches.length} reused documents render otherwise`);
    const why = `renders otherwise with this program and data: the record of what it is made from missed a change, so every document was rendered again, as with --force`;
    const more = mismatches.length - 5;
    this.notes = mismatches.slice(0, 5).map((mismatch) => `${mismatch} ${why}`);
    if (more > 0) this.notes.push(`and ${more} more reused documents`);
  }
}

/** What an up-to-date build repeats from the build that made the files. */
type StampedReport = Pick<BuildSummary, "builtAt" | "today" | "services" | "keys" | "problems">;
