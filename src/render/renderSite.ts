import { debug } from "../debug/debugLog.js";
import type { Provider, Service } from "../load/broadcaster.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import type { ScheduledBroadcaster, ScheduledService } from "../schedule/scheduleBroadcaster.js";
import { selectProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  KEYED_SI_PATH,
  OPEN_SI_PATH,
  type PlannedDocument,
  programmeInformationPath,
} from "../site/siteContract.js";
import type { PlainDate } from "../time/plainDate.js";
import type { SiteInputs } from "./documentInputs.js";
import type { RenderAhead } from "./renderAhead.js";
import {
  type FragmentCounts,
  type RenderWorkers,
  renderWorkerScript,
  startRenderWorkers,
} from "./renderInWorkers.js";
import { ProgrammeFragments, renderProgrammeInformation } from "./renderProgrammeInformation.js";
import { renderServiceInformation } from "./renderServiceInformation.js";

/**
 * A service goes to a render worker only with at least this many PI documents to render: its
 * model is copied to the worker (about as long as laying it out and rendering 2–3 documents), so
 * a nightly build, which renders one new day per service, renders on the main thread.
 */
export const WORKER_JOB_MIN_DOCUMENTS = 4;

export interface RenderOptions {
  /** Threads that may render at once; 1 renders everything on the main thread. */
  jobs?: number;
  /** Documents the schedule stage's check already rendered (renderAhead.ts). */
  ahead?: RenderAhead | undefined;
}

/**
 * The render stage: one PI document per service and published day, then both SI documents,
 * each rendered only when the publish stage asks (its inputs changed, or its file did). A
 * generator, so the publish stage can write each document before the next is planned; a
 * service is laid out for rendering only when one of its documents is rendered.
 *
 * With more than one job, a PI document's render() answers a promise: the service's documents
 * asked for are rendered together once the publish stage has looked at all of them, in a worker
 * when there are enough of them, while the publish stage goes on writing earlier ones.
 */
export function* planSite(
  scheduled: ScheduledBroadcaster,
  createdAt: number,
  inputs: SiteInputs,
  { jobs = 1, ahead }: RenderOptions = {},
): Generator<PlannedDocument> {
  const { broadcaster } = scheduled;
  const { provider } = broadcaster;
  const counts = { documents: 0, elements: 0, forEpisodes: 0, reused: 0 };
  const addCounts = (more: FragmentCounts) => {
    counts.elements += more.elements;
    counts.forEpisodes += more.forEpisodes;
    counts.reused += more.reused;
  };
  const threads = new RenderThreads(jobs, scheduled.services.length);
  try {
    for (const scheduledService of scheduled.services) {
      const { service } = scheduledService;
      const layout = layoutOnDemand(scheduledService);
      // One service's programme elements: its shows and episodes are its own, so none is used by
      // another service, and a build keeps one service's elements at a time (with an episode per
      // airing, holding all of them took the 100-service build to ~390 MB).
      const fragments = new ProgrammeFragments();
      const renderHere = (date: PlainDate) => {
        const before = { ...fragments };
        const document = renderServiceDay({
          provider,
          service,
          programmes: layout(),
          date,
          createdAt,
          fragments,
        });
        addCounts({
          elements: fragments.rendered - before.rendered,
          forEpisodes: fragments.renderedEpisodes - before.renderedEpisodes,
          reused: fragments.reused - before.reused,
        });
        return document;
      };
      const asked = threads.parallel ? new AskedDocuments() : undefined;
      for (const date of scheduled.dates) {
        const path = programmeInformationPath(
          service.radiodns.fqdn,
          service.radiodns.serviceIdentifier,
          date,
        );
        const documentInputs = inputs.programmeInformation(service, date);
        yield {
          path,
          inputs: documentInputs,
          render() {
            counts.documents++;
            const rendered = ahead?.take(path, documentInputs);
            if (rendered) return rendered;
            return asked ? asked.add(date) : renderHere(date);
          },
        };
      }
      // The publish stage has asked for every document of this service it needs.
      if (asked) {
        threads.render(
          asked,
          { provider, service, span: scheduled.span, createdAt },
          renderHere,
          addCounts,
        );
      }
    }
  } finally {
    threads.done();
  }
  // Emitted once every document asked for is rendered, so the workers' counts are in it too.
  const report = () => {
    debug(
      "render",
      () =>
        `${counts.documents} of ${scheduled.services.length * scheduled.dates.length} PI documents rendered; ` +
        `${counts.elements} programme elements rendered (${counts.forEpisodes} of them ` +
        `for episodes), ${counts.reused} airings filled in from one rendered before`,
    );
    debug("render", () => threads.report());
    if (ahead) {
      debug(
        "render",
        () =>
          `${ahead.taken} PI documents taken as rendered ahead during the check ` +
          `(${ahead.rendered} rendered ahead)`,
      );
    }
  };
  if (threads.pending.length === 0) report();
  else void Promise.allSettled(threads.pending).then(report);
  // SI last: a service appears in SI only once its PI documents are in place.
  yield {
    path: OPEN_SI_PATH,
    inputs: inputs.serviceInformation,
    render: () => renderServiceInformation({ broadcaster, withStreams: false, createdAt }),
  };
  yield {
    path: KEYED_SI_PATH,
    inputs: inputs.serviceInformation,
    render: () => renderServiceInformation({ broadcaster, withStreams: true, createdAt }),
  };
}

/** The PI document of one service's day, from its laid-out programmes (main thread or worker). */
export function renderServiceDay({
  provider,
  service,
  programmes,
  date,
  createdAt,
  fragments,
}: {
  provider: Provider;
  service: Service;
  programmes: readonly ProgrammeInstance[];
  date: PlainDate;
  createdAt: number;
  fragments: ProgrammeFragments;
}): Buffer {
  const day = selectProgrammeDay(programmes, service.timeZone, date, provider.piMarginHours);
  return renderProgrammeInformation({ provider, service, day, createdAt, fragments });
}

/** The documents of one service the publish stage asked for, each answered once rendered. */
class AskedDocuments {
  readonly dates: PlainDate[] = [];
  private readonly answers: {
    resolve: (bytes: Buffer) => void;
    reject: (error: unknown) => void;
  }[] = [];

  add(date: PlainDate): Promise<Buffer> {
    this.dates.push(date);
    const answer = new Promise<Buffer>((resolve, reject) => this.answers.push({ resolve, reject }));
    // Handled here too: a build that stops at an earlier failure never awaits the later answers.
    answer.catch(() => {});
    return answer;
  }

  answer(documents: readonly Buffer[]): void {
    for (const [i, { resolve }] of this.answers.entries()) resolve(documents[i] as Buffer);
  }

  fail(error: unknown): void {
    for (const { reject } of this.answers) reject(error);
  }
}

/** Where each service's documents are rendered: worker threads, started at the first need. */
class RenderThreads {
  readonly parallel: boolean;
  private workers: RenderWorkers | undefined;
  private readonly workerCount: number;
  private readonly why: string | undefined;
  /** The workers' answers not yet in. */
  readonly pending: Promise<void>[] = [];
  private inWorkers = 0;
  private onMainThread = 0;

  constructor(jobs: number, services: number) {
    const script = renderWorkerScript();
    this.workerCount = Math.min(jobs, services);
    this.why =
      jobs <= 1
        ? "--jobs 1"
        : script === undefined
          ? "no compiled render worker (running from the TypeScript source)"
          : undefined;
    this.parallel = this.why === undefined;
  }

  render(
    asked: AskedDocuments,
    job: {
      provider: Provider;
      service: Service;
      span: ScheduledBroadcaster["span"];
      createdAt: number;
    },
    renderHere: (date: PlainDate) => Buffer,
    addCounts: (counts: FragmentCounts) => void,
  ): void {
    const { dates } = asked;
    if (dates.length === 0) return;
    const script = renderWorkerScript();
    if (dates.length < WORKER_JOB_MIN_DOCUMENTS || script === undefined) {
      this.onMainThread += dates.length;
      try {
        asked.answer(dates.map(renderHere));
      } catch (error) {
        asked.fail(error);
      }
      return;
    }
    this.inWorkers += dates.length;
    this.workers ??= startRenderWorkers(this.workerCount, script);
    const answered = this.workers.render({ ...job, dates }).then(
      ({ documents, counts }) => {
        addCounts(counts);
        asked.answer(documents);
      },
      (error: unknown) => asked.fail(error),
    );
    this.pending.push(answered);
  }

  done(): void {
    this.workers?.closeWhenDone();
  }

  report(): string {
    if (!this.parallel) return `PI documents rendered on the main thread: ${this.why}`;
    const threads = this.workers ? this.workerCount : 0;
    return (
      `${this.inWorkers} PI documents rendered in ${threads} worker thread${threads === 1 ? "" : "s"} ` +
      `(services with at least ${WORKER_JOB_MIN_DOCUMENTS} to render), ${this.onMainThread} on the ` +
      `main thread (services with fewer: copying a model to a worker costs more than rendering them)`
    );
  }
}

/** The service's programmes, laid out at the first call and kept for its other documents. */
function layoutOnDemand(scheduled: ScheduledService): () => ProgrammeInstance[] {
  let programmes: ProgrammeInstance[] | undefined;
  return () => {
    programmes ??= scheduled.programmes();
    return programmes;
  };
}
