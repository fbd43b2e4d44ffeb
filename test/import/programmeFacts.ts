import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import sax from "sax";

/**
 * What a listener sees of each programme in a set of PI documents, read with a plain SAX pass
 * (not the importer's reader, so a reading mistake cannot hide on both sides): CRID, group,
 * times, names, descriptions, images, links, programme events and on-demand, each programme
 * once per start.
 */
export interface ProgrammeFacts {
  crid: string;
  memberOf: string[];
  /** Each programmeEvent: its elements and attributes in document order. */
  events: string[];
  /** Each onDemand's elements and attributes. */
  onDemand: string[];
  start: string;
  durationMinutes: number;
  names: string[];
  descriptions: string[];
  images: string[];
  links: string[];
}

export function programmeFactsOf(xml: string): ProgrammeFacts[] {
  const parser = sax.parser(true, {});
  const programmes: ProgrammeFacts[] = [];
  let current: ProgrammeFacts | undefined;
  let textOf: string | undefined;
  let text = "";
  let inEvent = false;
  let inOnDemand = false;
  parser.onopentag = (tag) => {
    const a = tag.attributes as Record<string, string>;
    if (tag.name === "programme") {
      current = {
        crid: a.id ?? "",
        memberOf: [],
        events: [],
        onDemand: [],
        start: "",
        durationMinutes: 0,
        names: [],
        descriptions: [],
        images: [],
        links: [],
      };
    } else if (current && tag.name === "programmeEvent") {
      inEvent = true;
      current.events.push(`event ${a.id}`);
    } else if (current && inEvent) {
      // An event's own names, times and links, in document order.
      current.events.push(`${tag.name} ${JSON.stringify(a)}`);
      if (/Name$|Description$/.test(tag.name)) {
        textOf = tag.name;
        text = "";
      }
    } else if (current && inOnDemand) {
      current.onDemand.push(`${tag.name} ${JSON.stringify(a)}`);
    } else if (current && tag.name === "onDemand") {
      inOnDemand = true;
    } else if (current && tag.name === "memberOf") {
      // The group's shortId too, where it is not 0.
      current.memberOf.push(a.shortId && a.shortId !== "0" ? `${a.id} ${a.shortId}` : (a.id ?? ""));
    } else if (current && tag.name === "time" && a.time) {
      current.start = new Date(Date.parse(a.time)).toISOString();
      const [, h = "0", m = "0"] = /^PT(?:(\d+)H)?(?:(\d+)M)?/.exec(a.duration ?? "") ?? [];
      current.durationMinutes = Number(h) * 60 + Number(m);
    } else if (current && /^(short|medium|long)(Name|Description)$/.test(tag.name)) {
      textOf = tag.name;
      text = "";
    } else if (current && tag.name === "multimedia") {
      current.images.push(`${a.url} ${a.width}x${a.height}`);
    } else if (current && tag.name === "link") {
      current.links.push(a.uri ?? "");
    }
  };
  const addText = (t: string) => {
    if (textOf) text += t;
  };
  parser.ontext = addText;
  parser.oncdata = addText;
  parser.onclosetag = (name) => {
    if (current && name === textOf) {
      const list = inEvent
        ? current.events
        : name.endsWith("Name")
          ? current.names
          : current.descriptions;
      list.push(`${name}: ${text.trim()}`);
      textOf = undefined;
    }
    if (name === "programmeEvent") inEvent = false;
    if (name === "onDemand") inOnDemand = false;
    if (name === "programme" && current) {
      programmes.push(current);
      current = undefined;
    }
  };
  parser.write(xml).close();
  return programmes;
}

/** Every service's programmes in a built site, by service id, each once, in order of start. */
export async function siteProgrammes(
  outDir: string,
  /** Key by `<fqdn>/<serviceIdentifier>`, for sites whose services have their own FQDNs. */
  withFqdn = false,
): Promise<Map<string, ProgrammeFacts[]>> {
  const byService = new Map<string, Map<string, ProgrammeFacts>>();
  const entries = await readdir(join(outDir, "radiodns/spi/3.1/id"), { recursive: true });
  for (const entry of entries.filter((e) => e.endsWith("_PI.xml")).sort()) {
    const serviceId = entry
      .split("/")
      .slice(withFqdn ? -3 : -2, -1)
      .join("/");
    const programmes = byService.get(serviceId) ?? new Map<string, ProgrammeFacts>();
    byService.set(serviceId, programmes);
    const xml = await readFile(join(outDir, "radiodns/spi/3.1/id", entry), "utf8");
    for (const programme of programmeFactsOf(xml)) programmes.set(programme.start, programme);
  }
  return new Map(
    [...byService].map(([id, programmes]) => [
      id,
      [...programmes.values()].sort((a, b) => a.start.localeCompare(b.start)),
    ]),
  );
}
