import type { ImportNote } from "../importNote.js";
import { FeedError, notWellFormed } from "./feedError.js";
import type { Feed, FeedServiceInformation, LocatedProgrammeInformation } from "./feedModel.js";
import { locateProgrammeInformation } from "./locateDocument.js";
import { readProgrammeInformation } from "./readProgrammeInformation.js";
import { readServiceInformation } from "./readServiceInformation.js";
import { originOf } from "./readSpiElements.js";
import { parseXml, SPI_NAMESPACE, type XmlElement, XmlSyntaxError } from "./xmlTree.js";

/** A document as fetched or read: its text and where it came from (a path or URL). */
export interface FeedDocument {
  source: string;
  /** The path in the SPI layout (`radiodns/spi/3.1/id/…/20261123_PI.xml`), for locating PI. */
  path: string;
  text: string;
}

/** Where the SPI layout puts the SI (TS 102 818 §10.2); a site copy may hold stale ones elsewhere. */
const SI_LAYOUT = /(^|[\\/])radiodns[\\/]spi[\\/]3\.1[\\/]SI\.xml$/i;

interface SiCandidate {
  si: FeedServiceInformation;
  inLayout: boolean;
  bearers: Set<string>;
  unread: ImportNote[];
}

/**
 * Parses every document and sorts them into SI and PI. A document that is not well-formed
 * stops the import (FeedError): what it would have given is unknown. One that is neither SI
 * nor PI is noted and left out; so is anything in a document the importer did not read. Of
 * several SI documents one is used (chooseServiceInformation), and the report says which.
 */
export function parseFeedDocuments(
  documents: readonly FeedDocument[],
  timeZone: string,
  notes: ImportNote[],
): Feed {
  const candidates: SiCandidate[] = [];
  const programmeInformation: LocatedProgrammeInformation[] = [];
  for (const document of documents) {
    let root: XmlElement;
    try {
      root = parseXml(document.text, document.source);
    } catch (error) {
      if (error instanceof XmlSyntaxError) throw notWellFormed(error, notes);
      throw error;
    }
    if (root.epgVersion1) {
      notes.push({
        origin: originOf(root.position),
        message:
          "an EPG 1.x document (TS 102 818 V1 namespaces): read as SPI 3.1, and what 3.1 cannot say is noted",
      });
    }
    if (root.namespace !== SPI_NAMESPACE) {
      notes.push({
        origin: originOf(root.position),
        message: `<${root.name}> is not in the SPI 3.1 namespace (${root.namespace || "none"}): not imported`,
      });
      continue;
    }
    if (root.name === "serviceInformation") {
      const si = readServiceInformation(root);
      candidates.push({
        si,
        inLayout: SI_LAYOUT.test(document.path),
        bearers: new Set(si.services.flatMap((s) => s.bearers.map((b) => b.id.toLowerCase()))),
        unread: unreadOf(root),
      });
    } else if (root.name === "epg" && root.childElements.some((c) => c.name === "schedule")) {
      const pi = readProgrammeInformation(root, timeZone, notes);
      programmeInformation.push({ document: pi, ...locateProgrammeInformation(document.path) });
      append(notes, unreadOf(root));
    } else {
      notes.push({
        origin: originOf(root.position),
        message: `<${root.name}>${root.name === "epg" ? " without a schedule (group information?)" : ""} is not an SI or PI document: not imported`,
      });
    }
  }
  const chosen = chooseServiceInformation(candidates, notes);
  if (!chosen) {
    throw new FeedError(
      "the feed has no SI document (<serviceInformation> of SPI 3.1): services cannot be imported without it; the notes above say what was found instead",
      notes,
    );
  }
  append(notes, chosen.unread);
  return { serviceInformation: chosen.si, programmeInformation };
}

/**
 * The SI to import: the one at the SPI layout's path, then the newest by creationTime, then the
 * one with the most bearers (a keyed SI lists the streams its open twin leaves out). Each other
 * SI is noted as not used, with why, unless it says nothing the chosen one does not (an open SI
 * beside its keyed twin, as a built site holds them).
 */
function chooseServiceInformation(
  candidates: SiCandidate[],
  notes: ImportNote[],
): SiCandidate | undefined {
  const ranked = [...candidates].sort(
    (a, b) =>
      Number(b.inLayout) - Number(a.inLayout) ||
      (b.si.creationTime ?? -Infinity) - (a.si.creationTime ?? -Infinity) ||
      b.bearers.size - a.bearers.size,
  );
  const [chosen, ...others] = ranked;
  if (!chosen) return undefined;
  const ignored = others.filter((other) => !isContainedIn(other, chosen));
  const [runnerUp] = ignored;
  if (!runnerUp) return chosen;
  const why =
    chosen.inLayout !== runnerUp.inLayout
      ? "it is at the SPI layout's path, radiodns/spi/3.1/SI.xml"
      : chosen.si.creationTime !== runnerUp.si.creationTime
        ? `its creationTime (${isoOf(chosen.si.creationTime)}) is the newest`
        : chosen.bearers.size !== runnerUp.bearers.size
          ? `it lists the most bearers (${chosen.bearers.size})`
          : "it is the first in name order (nothing else tells them apart)";
  notes.push({
    origin: chosen.si.source,
    message: `the SI used, of ${candidates.length}: ${why}; not used: ${ignored.map((c) => c.si.source).join(", ")}`,
  });
  for (const other of ignored) {
    notes.push({
      origin: other.si.source,
      message: `SI not used (${other.si.services.length} services${other.si.creationTime !== undefined ? `, creationTime ${isoOf(other.si.creationTime)}` : ""}): the one used is ${chosen.si.source}`,
    });
  }
  return chosen;
}

/** The same services, and no bearer the chosen SI lacks. */
function isContainedIn(other: SiCandidate, chosen: SiCandidate): boolean {
  const idsOf = (c: SiCandidate) =>
    c.si.services.map((s) => `${s.radiodns?.fqdn}/${s.radiodns?.serviceIdentifier}`).join(" ");
  return idsOf(other) === idsOf(chosen) && [...other.bearers].every((b) => chosen.bearers.has(b));
}

function isoOf(ms: number | undefined): string {
  return ms === undefined ? "none" : new Date(ms).toISOString().replace(".000Z", "Z");
}

function unreadOf(root: XmlElement): ImportNote[] {
  return root.unread().map(({ position, what, kind }) => ({
    origin: originOf(position),
    message: `${what} is not imported`,
    kind: `${kind}s not imported`,
  }));
}

/** push(...items) takes its items as arguments, and a feed's notes can outnumber the stack. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
