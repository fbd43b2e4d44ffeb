import type { Provider } from "../load/model/broadcaster.js";
import { ProgrammeFragments } from "../render/renderProgrammeInformation.js";
import { renderServiceDay } from "../render/renderSite.js";
import type { CheckedService } from "../schedule/scheduleBroadcaster.js";
import type { PlainDate } from "../time/plainDate.js";

/** A service with more PI documents to render than this is laid out again for them instead. */
export const RENDER_AHEAD_MAX_DOCUMENTS = 2;

/**
 * Where documents rendered ahead wait for the publish stage. A build keeps them on disk
 * (stagingFolder.ts): held in memory, 1000 services' new days took 130 MB.
 */
export interface AheadDocuments {
  /** Keeps a document under `name`; false when it could not (it is rendered when asked). */
  put(name: string, bytes: Buffer): boolean;
  /** The document kept under `name`, a buffer of its own; undefined when it is gone. */
  take(name: string): Buffer | undefined;
}

/**
 * Rendering ahead: the schedule stage lays out every service it checks over the whole span, and
 * a service whose plan renders a document or two (on a normal night, its new day) has them
 * rendered from that layout as the engine iterates the stage (checkServices), instead of being
 * laid out again (its episodes read again) for the render stage. The plan is decided before the
 * schedule stage runs, so only documents it renders are rendered ahead; the bytes are those the
 * render stage makes (renderServiceDay from the same programmes). A document that could not be
 * kept, or is gone when taken, is rendered by the render stage after all. SPI_STATIC_DEBUG=render
 * says how many were rendered ahead and taken.
 */
export class RenderAhead {
  /** Each document rendered ahead, by path: the name it is kept under. */
  private readonly documents = new Map<string, string>();
  rendered = 0;
  taken = 0;

  constructor(
    private readonly createdAt: number,
    private readonly kept: AheadDocuments,
  ) {}

  /**
   * Renders now the documents `toRender` of a service just laid out, when there are few; a
   * service taken as recorded has no programmes at hand and is left to the render stage.
   */
  renderFrom(
    provider: Provider,
    { service, programmes }: CheckedService,
    toRender: readonly { path: string; date: PlainDate }[],
  ): void {
    if (programmes === undefined) return;
    if (toRender.length === 0 || toRender.length > RENDER_AHEAD_MAX_DOCUMENTS) return;
    const fragments = new ProgrammeFragments();
    const { createdAt } = this;
    for (const { path, date } of toRender) {
      const bytes = renderServiceDay({ provider, service, programmes, date, createdAt, fragments });
      const name = `${this.rendered}.xml`;
      if (!this.kept.put(name, bytes)) break;
      this.documents.set(path, name);
      this.rendered++;
    }
    fragments.release();
  }

  /** Whether the document at `path` was rendered ahead (and may still be taken). */
  has(path: string): boolean {
    return this.documents.has(path);
  }

  /** The document at `path` if it was rendered ahead and is still kept. */
  take(path: string): Buffer | undefined {
    const name = this.documents.get(path);
    if (name === undefined) return undefined;
    this.documents.delete(path);
    const bytes = this.kept.take(name);
    if (bytes !== undefined) this.taken++;
    return bytes;
  }
}
