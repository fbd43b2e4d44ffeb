import { programmeInformationInputs, serviceInputs } from "../render/documentInputs.js";
import { ProgrammeFragments } from "../render/renderProgrammeInformation.js";
import { type RenderedAhead, renderServiceDay } from "../render/renderSite.js";
import type { CheckedService } from "../schedule/scheduleBroadcaster.js";
import { programmeInformationPath } from "../site/siteContract.js";

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
 * Rendering ahead: the schedule stage lays out every service over the whole span to check it,
 * and a service with a document or two to render (on a normal night, its new day) has them
 * rendered from that layout at once, instead of being laid out again (its episodes read again)
 * when the publish stage asks for them. Which documents will be asked for is foreseen from the
 * last build's inputs record: one whose inputs are as recorded is reused, unless its file
 * changed. A wrong guess costs time only: a document not rendered ahead is rendered when asked,
 * one rendered ahead and never asked for is dropped with the others once the build is done. The
 * bytes are those the render stage would make (renderServiceDay from the same programmes);
 * SPI_STATIC_DEBUG=render says how many were rendered ahead and taken.
 */
export class RenderAhead implements RenderedAhead {
  /** Each document rendered ahead: its inputs and the name it is kept under. */
  private readonly documents = new Map<string, { inputs: string; name: string }>();
  rendered = 0;
  taken = 0;

  constructor(
    private readonly programVersion: string,
    /** The inputs each published document was made from (inputsRecord.ts). */
    private readonly recordedInputs: (path: string) => string | undefined,
    private readonly createdAt: number,
    private readonly kept: AheadDocuments,
  ) {}

  /** ScheduleOptions.onChecked: renders the service's documents now when there are few. */
  readonly onChecked = ({ provider, service, programmes, dates }: CheckedService): void => {
    const ofService = serviceInputs(this.programVersion, provider, service);
    const wanted = [];
    for (const date of dates) {
      const path = programmeInformationPath(
        service.radiodns.fqdn,
        service.radiodns.serviceIdentifier,
        date,
      );
      const inputs = programmeInformationInputs(ofService, date);
      if (this.recordedInputs(path) !== inputs) wanted.push({ path, inputs, date });
    }
    if (wanted.length === 0 || wanted.length > RENDER_AHEAD_MAX_DOCUMENTS) return;
    const fragments = new ProgrammeFragments();
    for (const { path, inputs, date } of wanted) {
      const { createdAt } = this;
      const bytes = renderServiceDay({ provider, service, programmes, date, createdAt, fragments });
      const name = `${this.rendered}.xml`;
      if (!this.kept.put(name, bytes)) return;
      this.documents.set(path, { inputs, name });
      this.rendered++;
    }
  };

  /** The document at `path` if it was rendered ahead from these inputs (and is still kept). */
  take(path: string, inputs: string): Buffer | undefined {
    const ahead = this.documents.get(path);
    if (ahead === undefined || ahead.inputs !== inputs) return undefined;
    this.documents.delete(path);
    const bytes = this.kept.take(ahead.name);
    if (bytes !== undefined) this.taken++;
    return bytes;
  }
}
