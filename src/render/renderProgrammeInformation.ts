import { imageMimeType } from "../load/formats/mediaType.js";
import type { OnDemand, Provider, Service, Show } from "../load/model/broadcaster.js";
import type { ProgrammeInstance } from "../schedule/programmeInstance.js";
import { onDemandWindow } from "../schedule/programmeParts.js";
import type { ProgrammeDay } from "../schedule/selectProgrammeDay.js";
import {
  attributes,
  SPI_NAMESPACE,
  writeDescriptions,
  writeGenres,
  writeKeywords,
  writeLinks,
  writeNames,
} from "./spiElements.js";
import { formatSpiDuration, formatSpiTime } from "./spiTime.js";
import { type OwnTexts, textVersions } from "./textVersions.js";
import { websiteLabel } from "./websiteLabel.js";
import { FragmentSlabs, slot, writeXmlDocument, type XmlFragment, XmlWriter } from "./xmlWriter.js";

export interface ProgrammeInformationInput {
  provider: Provider;
  service: Service;
  day: ProgrammeDay;
  /** The build's clock, UTC ms: the schedule's creationTime. */
  createdAt: number;
  /** The build's programme elements, kept from one document to the next. */
  fragments?: ProgrammeFragments;
}

/** The PI document of one service for one day (TS 102 818 clause 7; seed §2.1), UTF-8. */
export function renderProgrammeInformation({
  provider,
  service,
  day,
  createdAt,
  fragments = new ProgrammeFragments(),
}: ProgrammeInformationInput): Buffer {
  return writeXmlDocument((xml) => {
    xml.ele("epg", { xmlns: SPI_NAMESPACE, "xml:lang": service.language });
    xml.ele("schedule", {
      creationTime: formatSpiTime(createdAt),
      originator: provider.originator,
      "xml:lang": service.language,
    });
    xml
      .ele("scope", {
        startTime: formatSpiTime(day.scopeStart),
        stopTime: formatSpiTime(day.scopeEnd),
      })
      .up();
    for (const programme of day.programmes) {
      writeAiring(xml, fragments, programme, service.language);
    }
    xml.up().up();
  });
}

const MINUTE_MS = 60_000;

/** epg > schedule > programme. */
const PROGRAMME_DEPTH = 2;

/**
 * What each airing fills into its programme element: its CRID and shortId, its group's shortId,
 * time and duration, its on-demand window, and the CRID and shortId of each programme event
 * (`event1`, `eventShortId1`, …).
 */
type AiringSlot = string;

interface ProgrammeFragment {
  groupCrid: string;
  language: string;
  /** The offsets of the placed events, which differ between airings of different lengths. */
  eventOffsets: string;
  fragment: XmlFragment<AiringSlot>;
}

/**
 * A programme element is the same in every airing of its content but for the slots above: one
 * build renders it once per content and fills it in for each airing. The cache key is the
 * content (the show object; for an airing with an episode, the episode laid over its show, made
 * once per layout of the service), the group CRID, the service's language, and the offsets of the events placed in the airing (a repeating event fits more often in a longer
 * airing). An episode's content is used by one airing, and again only by the PI documents of
 * the neighbouring days that list it; the content is held weakly, so it goes when its service's
 * layout does. Names, descriptions, images and genres are most of a PI document's bytes. Kept
 * for one build only (renderSite makes one per build), so a rebuild after an edit never reuses
 * an element of the old data.
 */
export class ProgrammeFragments {
  private readonly byContent = new WeakMap<Show, ProgrammeFragment[]>();
  /**
   * Each image's multimedia attributes, worked out once: an episode is a new content for every
   * airing but keeps its show's image objects, and the MIME type from the URL's extension, the
   * size split in two and the attributes filtered were 4 % of rendering (issue 23). Keyed by
   * the model's (read-only) image object, and kept with the fragments for one service of one
   * build, so no other input can meet an entry.
   */
  private readonly multimediaByImage = new WeakMap<Image, Record<string, string>>();
  /** Where this service's fragments are encoded; given back by `release`. */
  private readonly slabs = new FragmentSlabs();
  /** Programme elements rendered (of them, for episodes), and airings filled in from one before. */
  rendered = 0;
  renderedEpisodes = 0;
  reused = 0;

  of(programme: ProgrammeInstance, language: string): XmlFragment<AiringSlot> {
    // A fragment kept from before is a view of a slab given back.
    if (this.slabs.released) throw new Error("programme fragments used after they were released");
    const { content, groupCrid, events } = programme;
    let known = this.byContent.get(content);
    if (!known) {
      known = [];
      this.byContent.set(content, known);
    }
    const eventOffsets = events.length === 0 ? "" : events.map((e) => e.offset).join(",");
    // Nearly always one entry: a show has one group.
    for (const entry of known) {
      if (
        entry.groupCrid === groupCrid &&
        entry.language === language &&
        entry.eventOffsets === eventOffsets
      ) {
        this.reused++;
        return entry.fragment;
      }
    }
    const fragment = XmlWriter.fragment<AiringSlot>(
      PROGRAMME_DEPTH,
      (xml) => writeProgramme(xml, programme, language, (image) => this.multimedia(image)),
      this.slabs,
    );
    known.push({ groupCrid, language, eventOffsets, fragment });
    this.rendered++;
    if (programme.episode) this.renderedEpisodes++;
    return fragment;
  }

  /**
   * Once the service's documents are rendered (their bytes are copies of their own): its
   * fragments' bytes go to the next service's (FragmentSlabs). Rendering with these fragments
   * after this throws.
   */
  release(): void {
    this.slabs.release();
  }

  private multimedia(image: Image): Record<string, string> {
    let attrs = this.multimediaByImage.get(image);
    if (!attrs) {
      const [width, height] = image.size.split("x");
      const mimeValue = image.mimeValue ?? imageMimeType(image.url);
      attrs = attributes({ url: image.url, mimeValue, width, height });
      this.multimediaByImage.set(image, attrs);
    }
    return attrs;
  }
}

type Image = NonNullable<Show["images"]>[number];
/** An image's multimedia attributes (see ProgrammeFragments.multimedia). */
type MultimediaOf = (image: Image) => Readonly<Record<string, string>>;

/** `language` is the service's: the PI document's and that of the programme's own texts. */
function writeProgramme(
  xml: XmlWriter,
  programme: ProgrammeInstance,
  language: string,
  multimediaOf: MultimediaOf,
) {
  const { content, groupCrid, events } = programme;
  xml.ele("programme", { id: slot("crid"), shortId: slot("shortId") });
  const texts = textVersions(content, language, language);
  writeNames(xml, texts);
  xml
    .ele("location")
    .ele("time", { time: slot("time"), duration: slot("duration") })
    .up()
    .up();
  if (content.onDemand) writeOnDemand(xml, content.onDemand);
  writeProgrammeText(xml, content, texts, multimediaOf);
  xml.ele("memberOf", { id: groupCrid, shortId: slot("groupShortId") }).up();
  if (content.website) {
    const description = websiteLabel(language);
    xml.ele("link", attributes({ uri: content.website, mimeValue: "text/html", description })).up();
  }
  writeLinks(xml, texts);
  // The seed's link descriptions for identities in the broadcast system (TS 102 818 C.4),
  // written only when the data gives them: spi-static never makes one up.
  if (content.terrestrialEventLocator) {
    const uri = content.terrestrialEventLocator;
    xml.ele("link", { uri, description: "terrestrial_event_locator" }).up();
  }
  if (content.terrestrialProgrammeCrid) {
    const uri = content.terrestrialProgrammeCrid;
    xml.ele("link", { uri, description: "terrestrial_programme_crid" }).up();
  }
  events.forEach(({ event, offset }, i) => {
    xml.ele("programmeEvent", { id: slot(`event${i + 1}`), shortId: slot(`eventShortId${i + 1}`) });
    const eventTexts = textVersions(event, language, language);
    writeNames(xml, eventTexts);
    xml
      .ele("location")
      .ele("relativeTime", {
        time: formatSpiDuration(offset * MINUTE_MS),
        duration: formatSpiDuration(event.duration * MINUTE_MS),
      })
      .up()
      .up();
    writeProgrammeText(xml, event, eventTexts, multimediaOf);
    writeLinks(xml, eventTexts);
    xml.up();
  });
  xml.up();
}

/** mediaDescription, genre and keywords of a programme or programme event, in the XSD's order. */
function writeProgrammeText(
  xml: XmlWriter,
  own: OwnTexts & Pick<Show, "images" | "genres">,
  texts: ReturnType<typeof textVersions>,
  multimediaOf: MultimediaOf,
) {
  writeDescriptions(xml, texts);
  for (const image of own.images ?? []) {
    xml.ele("mediaDescription").ele("multimedia", multimediaOf(image)).up().up();
  }
  writeGenres(xml, own.genres ?? []);
  writeKeywords(xml, texts);
}

/** One onDemand: every file is a bearer of the same recording, in one presentation window. */
function writeOnDemand(xml: XmlWriter, onDemand: OnDemand) {
  xml.ele("onDemand");
  xml
    .ele("presentationTime", {
      start: slot("onDemandStart"),
      ...(onDemand.until !== undefined || onDemand.days !== undefined
        ? { end: slot("onDemandEnd") }
        : {}),
      duration: slot("onDemandDuration"),
    })
    .up();
  for (const file of onDemand.files) {
    xml
      .ele(
        "bearer",
        attributes({
          id: file.url,
          cost: file.cost ?? 100,
          mimeValue: file.mimeValue,
          bitrate: file.bitrate,
        }),
      )
      .up();
  }
  xml.up();
}

function writeAiring(
  xml: XmlWriter,
  fragments: ProgrammeFragments,
  programme: ProgrammeInstance,
  language: string,
) {
  const { content, crid, start, end } = programme;
  const values: Record<AiringSlot, string> = {
    crid,
    shortId: String(programme.shortId),
    groupShortId: String(programme.groupShortId),
    time: formatSpiTime(start),
    duration: formatSpiDuration(end - start),
  };
  if (content.onDemand) {
    const window = onDemandWindow(content.onDemand, programme);
    values.onDemandStart = formatSpiTime(window.start);
    values.onDemandEnd = window.end === undefined ? "" : formatSpiTime(window.end);
    values.onDemandDuration = formatSpiDuration(window.duration);
  }
  programme.eventIds.forEach((id, i) => {
    values[`event${i + 1}`] = id.crid;
    values[`eventShortId${i + 1}`] = String(id.shortId);
  });
  xml.insert(fragments.of(programme, language), values);
}
