import { Document, isScalar, visit } from "yaml";
import type { EpisodeInput } from "../../load/schema/episodesSchema.js";
import type { ImportedData } from "../map/importFeed.js";
import { isoWeekOf } from "../map/localTime.js";

/** A file of the data folder: its path below the folder and its YAML text. */
export interface DataFile {
  path: string;
  text: string;
}

/**
 * The data folder's files, written as a person would: the schema comment editors use, short
 * mappings (slots, images, links, bearers) on one line, and every string that YAML could read
 * as something else (times, dates, yes/no) in quotes.
 */
export function dataFolderFiles(data: ImportedData, source: string): DataFile[] {
  const heading = (schema: string, what: string) =>
    `# yaml-language-server: $schema=${schema}\n# ${what}, imported from ${source} by spi-static import.\n`;
  const files: DataFile[] = [
    {
      path: "provider.yaml",
      text:
        heading("../schema/provider.schema.json", "The service provider") + yamlOf(data.provider),
    },
  ];
  for (const { service, schedule, episodes } of data.services) {
    files.push({
      path: `services/${service.id}.yaml`,
      text: heading("../../schema/service.schema.json", `Service ${service.id}`) + yamlOf(service),
    });
    files.push({
      path: `schedules/${service.id}.yaml`,
      text:
        heading("../../schema/schedule.schema.json", `The schedule of ${service.id}`) +
        yamlOf(schedule),
    });
    // One file per week, as a scheduling system would write them.
    const weeks = new Map<string, EpisodeInput[]>();
    for (const episode of episodes) {
      const week = isoWeekOf(episode.date);
      weeks.set(week, [...(weeks.get(week) ?? []), episode]);
    }
    for (const [week, list] of weeks) {
      files.push({
        path: `episodes/${service.id}/${week}.yaml`,
        text:
          heading("../../../schema/episodes.schema.json", `Episodes of ${service.id} in ${week}`) +
          yamlOf({ episodes: list }),
      });
    }
  }
  return files;
}

function yamlOf(value: unknown): string {
  // YAML 1.1 rules for quoting: "05:00" would be a sexagesimal number there, and `no` false.
  const document = new Document(value, { version: "1.1" });
  visit(document, {
    Map(_key, node) {
      const leaf = node.items.every((pair) => isScalar(pair.value));
      if (leaf && node.items.length <= 4) node.flow = true;
    },
    Seq(_key, node) {
      if (node.items.every((item) => isScalar(item))) node.flow = true;
    },
  });
  return document.toString({ lineWidth: 0, flowCollectionPadding: true });
}
