import { readFileSync } from "node:fs";
import type { Provider } from "../load/model/broadcaster.js";
import { ProgrammeFragments } from "../render/renderProgrammeInformation.js";
import { renderServiceDay } from "../render/renderSite.js";
import type { CheckedService } from "../schedule/scheduleBroadcaster.js";
import type { PlainDate } from "../time/plainDate.js";
import type { StagingFolder } from "./stagingFolder.js";

/**
 * Rendering ahead: the documents the plan renders of the days the schedule stage laid out for a
 * service (on a normal night, its new day) are rendered from that layout as the engine iterates
 * the stage (checkServices), instead of the service being laid out again for the render stage;
 * the same bytes (renderServiceDay from the same programmes). Each waits in the build's staging
 * folder (in memory, 1000 services' new days took 130 MB); one that could not be staged, or is
 * gone when taken, is rendered by the render stage after all. SPI_STATIC_DEBUG=render counts them.
 */
export class RenderAhead {
  /** Each document rendered ahead, by path: the name it is staged under. */
  private readonly documents = new Map<string, string>();
  rendered = 0;
  taken = 0;

  constructor(
    private readonly createdAt: number,
    private readonly staging: StagingFolder,
  ) {}

  /**
   * Renders now the documents `toRender` of a service just laid out; a service taken as
   * recorded has no programmes at hand and is left to the render stage.
   */
  renderFrom(
    provider: Provider,
    { service, programmes }: CheckedService,
    toRender: readonly { path: string; date: PlainDate }[],
  ): void {
    if (programmes === undefined || toRender.length === 0) return;
    const fragments = new ProgrammeFragments();
    const { createdAt } = this;
    for (const { path, date } of toRender) {
      const bytes = renderServiceDay({ provider, service, programmes, date, createdAt, fragments });
      const name = `ahead-${this.rendered}.xml`;
      if (!this.staging.write(name, bytes)) break;
      this.documents.set(path, name);
      this.rendered++;
    }
    fragments.release();
  }

  /** The document at `path` if it was rendered ahead and is still staged. */
  take(path: string): Buffer | undefined {
    const name = this.documents.get(path);
    if (name === undefined) return undefined;
    this.documents.delete(path);
    try {
      const bytes = readFileSync(this.staging.pathOf(name));
      this.taken++;
      return bytes;
    } catch {
      return undefined;
    }
  }
}
