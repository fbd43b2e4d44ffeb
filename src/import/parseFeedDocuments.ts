import { SpiStaticError } from "../exit/spiStaticError.js";
import type { Feed, FeedServiceInformation, LocatedProgrammeInformation } from "./feedModel.js";
import type { ImportNote } from "./importNote.js";
import { locateProgrammeInformation } from "./locateDocument.js";
import { readProgrammeInformation } from "./readProgrammeInformation.js";
import { readServiceInformation } from "./readServiceInformation.js";
import { originOf } from "./readSpiElements.js";
import { parseXml, SPI_NAMESPACE, XmlSyntaxError } from "./xmlTree.js";

/** A document as fetched or read: its text and where it came from (a path or URL). */
export interface FeedDocument {
  source: string;
  /** The path in the SPI layout (`radiodns/spi/3.1/id/…/20261123_PI.xml`), for locating PI. */
  path: string;
  text: string;
}

/** The feed cannot be fetched, or has no SI document: nothing can be imported (exit 3). */
export class FeedError extends SpiStaticError {
  readonly kind = "failure";
}

/**
 * Parses every document and sorts them into SI and PI. Of several SI documents the one with
 * the most bearers is used (a keyed SI lists the streams the open one leaves out). A document
 * that is not well-formed, or is neither SI nor PI, is noted and left out; so is anything in
 * a document the importer did not read.
 */
export function parseFeedDocuments(documents: readonly FeedDocument[], notes: ImportNote[]): Feed {
  const serviceInformation: {
    si: FeedServiceInformation;
    bearers: number;
    unread: ImportNote[];
  }[] = [];
  const programmeInformation: LocatedProgrammeInformation[] = [];
  for (const document of documents) {
    let root: ReturnType<typeof parseXml>;
    try {
      root = parseXml(document.text, document.source);
    } catch (error) {
      if (!(error instanceof XmlSyntaxError)) throw error;
      notes.push({
        origin: originOf(error.position),
        message: `not well-formed XML (${error.message}): not imported`,
      });
      continue;
    }
    const documentNotes: ImportNote[] = [];
    if (root.namespace !== SPI_NAMESPACE) {
      notes.push({
        origin: originOf(root.position),
        message: `<${root.name}> is not in the SPI 3.1 namespace: not imported`,
      });
      continue;
    }
    if (root.name === "serviceInformation") {
      const si = readServiceInformation(root);
      const unread = unreadOf(root);
      const bearers = si.services.reduce((sum, s) => sum + s.bearers.length, 0);
      serviceInformation.push({ si, bearers, unread });
    } else if (root.name === "epg" && root.childElements.some((c) => c.name === "schedule")) {
      const pi = readProgrammeInformation(root, documentNotes);
      programmeInformation.push({ document: pi, ...locateProgrammeInformation(document.path) });
      documentNotes.push(...unreadOf(root));
    } else {
      notes.push({
        origin: originOf(root.position),
        message: `<${root.name}>${root.name === "epg" ? " without a schedule (group information?)" : ""} is not an SI or PI document: not imported`,
      });
      continue;
    }
    notes.push(...documentNotes);
  }
  serviceInformation.sort((a, b) => b.bearers - a.bearers);
  const chosen = serviceInformation[0];
  if (!chosen) {
    throw new FeedError(
      "the feed has no SI document (<serviceInformation>): services cannot be imported without it",
    );
  }
  notes.push(...chosen.unread);
  return { serviceInformation: chosen.si, programmeInformation };
}

function unreadOf(root: ReturnType<typeof parseXml>): ImportNote[] {
  return root.unread().map(({ position, what }) => ({
    origin: originOf(position),
    message: `${what} is not imported`,
  }));
}
