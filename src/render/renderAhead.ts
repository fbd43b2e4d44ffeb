import type { CheckedService } from "../schedule/scheduleBroadcaster.js";
import { programmeInformationPath } from "../site/siteContract.js";
import { programmeInformationInputs, serviceInputs } from "./documentInputs.js";
import { ProgrammeFragments } from "./renderProgrammeInformation.js";
import { renderServiceDay } from "./renderSite.js";

/** A service with more PI documents to render than this is laid out again for them instead. */
export const RENDER_AHEAD_MAX_DOCUMENTS = 2;
/** At most this many bytes of documents rendered ahead wait for the publish stage. */
export const RENDER_AHEAD_MAX_BYTES = 32_000_000;

/**
 * Rendering ahead: the schedule stage lays out every service over the whole span to check it,
 * and a service with a document or two to render (on a normal night, its new day) has them
 * rendered from that layout at once, instead of being laid out again (its episodes read again)
 * when the publish stage asks for them. Which documents will be asked for is foreseen from the
 * last build's inputs record: one whose inputs are as recorded is reused, unless its file
 * changed. A wrong guess costs time only: a document not rendered ahead is rendered when asked,
 * one rendered ahead and never asked for is dropped. The bytes are those the render stage would
 * make (renderServiceDay from the same programmes); SPI_STATIC_DEBUG=render says how many were
 * rendered ahead and taken.
 */
export class RenderAhead {
  private readonly documents = new Map<string, { inputs: string; bytes: Buffer }>();
  private heldBytes = 0;
  rendered = 0;
  taken = 0;

  constructor(
    private readonly programVersion: string,
    /** The inputs each published document was made from (publish/inputsRecord.ts). */
    private readonly recordedInputs: (path: string) => string | undefined,
    private readonly createdAt: number,
  ) {}

  /** ScheduleOptions.onChecked: renders the service's documents now when there are few. */
  readonly onChecked = ({ provider, service, programmes, dates }: CheckedService): void => {
    const ofService = serviceInputs(this.programVersion, provider, service);
    const wanted = [];
    for (const date of dates) {
      const path = programmeInformationPath(provider.radiodnsHost, service.id, date);
      const inputs = programmeInformationInputs(ofService, date);
      if (this.recordedInputs(path) !== inputs) wanted.push({ path, inputs, date });
    }
    if (wanted.length === 0 || wanted.length > RENDER_AHEAD_MAX_DOCUMENTS) return;
    const fragments = new ProgrammeFragments();
    for (const { path, inputs, date } of wanted) {
      if (this.heldBytes >= RENDER_AHEAD_MAX_BYTES) return;
      const { createdAt } = this;
      const bytes = renderServiceDay({ provider, service, programmes, date, createdAt, fragments });
      this.documents.set(path, { inputs, bytes });
      this.heldBytes += bytes.length;
      this.rendered++;
    }
  };

  /** The document at `path` if it was rendered ahead from these inputs; let go once taken. */
  take(path: string, inputs: string): Buffer | undefined {
    const ahead = this.documents.get(path);
    if (ahead === undefined || ahead.inputs !== inputs) return undefined;
    this.documents.delete(path);
    this.heldBytes -= ahead.bytes.length;
    this.taken++;
    return ahead.bytes;
  }
}
