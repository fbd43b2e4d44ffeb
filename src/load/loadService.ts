import { createHash } from "node:crypto";
import { basename, join } from "node:path";
import { radiodnsKey } from "../site/siteContract.js";
import { checkBearers } from "./checks/checkBearers.js";
import { checkMediumName } from "./checks/checkMediumName.js";
import { checkServiceGenres } from "./checks/checkServiceGenres.js";
import { checkServiceNamesInLanguage, checkTranslations } from "./checks/checkTranslations.js";
import { type DataFiles, listYaml, readDataFile, unreadableProblem } from "./files/dataFiles.js";
import { timeZoneProblem } from "./formats/ianaTimeZone.js";
import { SERVICE_ID_PATTERN } from "./formats/spiFormat.js";
import { type EpisodeList, loadSchedule } from "./loadSchedule.js";
import { loadLogos } from "./logos/loadLogos.js";
import { madeLogoInputs } from "./logos/logosFromSource.js";
import { withServiceLogos } from "./logos/modelLogos.js";
import type {
  Geolocation,
  Provider,
  RadiodnsId,
  Schedule,
  Service,
  ServiceGroup,
} from "./model/broadcaster.js";
import { defaultShortIdSlot, ShortIdSlots } from "./model/shortIdSlot.js";
import type { GeolocationInput } from "./schema/fields.js";
import type { ServiceInput } from "./schema/serviceSchema.js";
import { didYouMean } from "./text/closestName.js";
import { formatSourceRef, type InputProblem, type SourceRef } from "./text/inputProblem.js";
import type { YamlFile } from "./text/readYamlFile.js";

/** What the services of one data folder claim from one another: the first claim holds. */
export class ServiceClaims {
  /** Service ids, with the file that gave each. */
  readonly ids = new Map<string, string>();
  /** The schedule names a service file stands for, even one too broken to give its id. */
  readonly names = new Set<string>();
  /**
   * CRIDs written in the YAML, with the special first giving each: a client would merge two
   * programmes sharing one.
   */
  readonly givenCrids = new Map<string, SourceRef>();
  /**
   * Each DAB/FM bearer with the service file that claimed it first: a radio tuned to it must
   * find one service, so the edge rules can map its PI path to one.
   */
  readonly bearers = new Map<string, () => SourceRef>();
  /** (fqdn, serviceIdentifier) pairs, with the file that gave each. */
  readonly radiodnsIds = new Map<string, string>();
  /** The service groups some service joins, broken services included: the rest have no members. */
  readonly groups = new Set<string>();
  /** The GCCs of the FM bearers that take the provider's fmCountry, with a service of each. */
  readonly defaultCountryGccs = new Map<string, string>();
  /** Services with unique shortIds share the provider's range (TS 102 818 §5.2.2), a slot each. */
  readonly shortIdSlots = new ShortIdSlots();
}

/** A service file as loaded: the service when it has no errors, and what was found. */
export interface LoadedService {
  /** Its id, when the file gives one (even one too broken to use). */
  id: string | undefined;
  service: Service | undefined;
  problems: InputProblem[];
}

/**
 * A service file with its schedule and episode files into the model, checked against what the
 * services read before it claimed. A service stands or falls on its own.
 */
export async function loadService(
  files: DataFiles,
  path: string,
  provider: Provider | undefined,
  claims: ServiceClaims,
): Promise<LoadedService> {
  const own: InputProblem[] = [];
  const { file, input, digest } = await readDataFile(files, "service", path, own);
  // A service file with errors still names its schedule, which is checked all the same.
  for (const group of input?.groups ?? []) claims.groups.add(group);
  // The raw value only when the file has errors: from the input cache it would be parsed.
  const rawId = input ? undefined : (file?.value as { id?: unknown } | undefined)?.id;
  const id = input?.id ?? (typeof rawId === "string" ? rawId : undefined);
  claims.names.add(basename(path).replace(/\.yaml$/, ""));
  if (id !== undefined) claims.names.add(id);

  const earlier = id === undefined ? undefined : claims.ids.get(id);
  if (file && input && earlier) {
    own.push(file.error(["id"], `service id "${input.id}" is also used in ${earlier}`));
  }
  let service: Service | undefined;
  if (id !== undefined && !earlier && SERVICE_ID_PATTERN.test(id)) {
    if (file) claims.ids.set(id, file.file);
    const fields =
      file && input ? await claimFields(files, input, file, provider, claims, own) : undefined;
    service = await withSchedule(files, id, fields, input && file, digest, claims, own);
  }
  const usable = service && !own.some((p) => p.severity === "error");
  return { id, service: usable ? service : undefined, problems: own };
}

/** The service's own fields, its logos and bearers checked and its claims made. */
async function claimFields(
  files: DataFiles,
  input: ServiceInput,
  file: YamlFile,
  provider: Provider | undefined,
  claims: ServiceClaims,
  own: InputProblem[],
): Promise<Omit<Service, "schedule" | "sources">> {
  const fields = await withServiceLogos(
    toServiceFields(input, provider, file, own),
    input,
    provider,
    file,
    files,
    own,
  );
  own.push(...checkBearers(input, file, claims.bearers));
  if (input.fmCountry === undefined) {
    for (const { id: bearer } of input.bearers?.fm ?? []) {
      const gcc = bearer.slice(3, 6);
      if (!claims.defaultCountryGccs.has(gcc)) claims.defaultCountryGccs.set(gcc, input.id);
    }
  }
  if (fields.shortIds === "unique") {
    const at = file.locateKey(input.shortIdSlot === undefined ? ["id"] : ["shortIdSlot"]);
    const taken = claims.shortIdSlots.take(input, fields.radiodns.fqdn, file.file, at);
    if (taken) own.push(taken);
  }
  own.push(...claimRadiodnsId(fields.radiodns, input, file, claims.radiodnsIds));
  return fields;
}

/**
 * The service with its schedule and episodes, named by a digest of every file it was made
 * from; undefined when a part is missing. `file` is the service's when it has no errors.
 */
async function withSchedule(
  files: DataFiles,
  id: string,
  fields: Omit<Service, "schedule" | "sources"> | undefined,
  file: YamlFile | undefined,
  digest: string | undefined,
  claims: ServiceClaims,
  own: InputProblem[],
): Promise<Service | undefined> {
  const schedulePath = join(files.dataDir, "schedules", `${id}.yaml`);
  const scheduleRead = await files.inputs.read("schedule", schedulePath);
  if ("unreadable" in scheduleRead) {
    const { unreadable } = scheduleRead;
    // A missing schedule is the service's mistake; any other reason is the schedule file's.
    if (!unreadable.missing) own.push(unreadableProblem(files.display(schedulePath), unreadable));
    else if (file) own.push(file.error(["id"], `has no schedule: schedules/${id}.yaml is missing`));
  } else {
    for (const problem of scheduleRead.problems) own.push(problem);
  }
  const episodeFiles = await readEpisodeFiles(files, join(files.dataDir, "episodes", id), own);
  const schedule =
    "file" in scheduleRead && scheduleRead.input
      ? loadSchedule(
          scheduleRead.input,
          scheduleRead.file,
          own,
          episodeFiles.map(({ list }) => list),
          fields?.language,
        )
      : undefined;
  if (schedule) own.push(...repeatedCrids(schedule, claims.givenCrids));
  let service: Service | undefined;
  if (fields && schedule && digest && "digest" in scheduleRead) {
    const sources = [
      digest,
      scheduleRead.digest,
      ...episodeFiles.map((e) => e.digest),
      ...madeLogoInputs(fields.logos),
    ];
    service = { ...fields, sources: digestOf(sources), schedule };
  }
  if (schedule && (!service || own.some((p) => p.severity === "error"))) {
    // Left out, so never laid out: its episodes are checked here all the same.
    schedule.episodes.load(own);
  }
  return service;
}

/**
 * A service's episode files: each read and checked on its own, the valid ones kept to be read
 * again whenever the service is laid out (Schedule.episodes).
 */
async function readEpisodeFiles(files: DataFiles, dir: string, into: InputProblem[]) {
  const listing = await listYaml(files, dir, into);
  const lists: { list: EpisodeList; digest: string }[] = [];
  for (const path of listing?.files ?? []) {
    const read = await files.inputs.readLater("episodes", path);
    if ("unreadable" in read) {
      into.push(unreadableProblem(files.display(path), read.unreadable));
      continue;
    }
    for (const problem of read.problems) into.push(problem);
    if (read.input)
      lists.push({ list: { file: read.file, input: read.input }, digest: read.digest });
  }
  return lists;
}

/** One digest for the digests of a service's files, in the order they were read. */
function digestOf(digests: readonly string[]): string {
  return createHash("sha256").update(digests.join("\0")).digest("hex");
}

/** `given` holds the special that first gave each CRID; its `.crid` field is made for a message. */
function repeatedCrids(schedule: Schedule, given: Map<string, SourceRef>): InputProblem[] {
  const problems: InputProblem[] = [];
  const atCrid = (special: SourceRef) => ({ ...special, field: `${special.field}.crid` });
  for (const day of schedule.dates.values()) {
    for (const { crid, origin } of day.specials) {
      if (crid === undefined) continue;
      const earlier = given.get(crid);
      if (earlier) {
        problems.push({
          ...atCrid(origin),
          severity: "error",
          message: `${crid} is also given at ${formatSourceRef(atCrid(earlier))}`,
        });
      } else {
        given.set(crid, origin);
      }
    }
  }
  return problems;
}

/**
 * Two services with one (fqdn, serviceIdentifier) would share their PI URLs: the later file is
 * refused, at its radiodns field or, when the pair is all defaults, at its id.
 */
function claimRadiodnsId(
  radiodns: RadiodnsId,
  input: ServiceInput | undefined,
  file: YamlFile,
  inUse: Map<string, string>,
): InputProblem[] {
  const key = radiodnsKey(radiodns);
  const earlier = inUse.get(key);
  if (earlier === undefined) {
    inUse.set(key, file.file);
    return [];
  }
  const at = input?.radiodns?.serviceIdentifier
    ? ["radiodns", "serviceIdentifier"]
    : input?.radiodns?.fqdn
      ? ["radiodns", "fqdn"]
      : ["id"];
  return [
    file.error(
      at,
      `serviceIdentifier "${radiodns.serviceIdentifier}" under ${radiodns.fqdn} is also used in ${earlier}: their PI URLs would be the same`,
    ),
  ];
}

/** A service's own file → the service without its schedule; defaults come from the provider. */
function toServiceFields(
  input: ServiceInput,
  provider: Provider | undefined,
  file: YamlFile,
  problems: InputProblem[],
): Omit<Service, "schedule" | "sources"> {
  const zone = input.timeZone && timeZoneProblem(input.timeZone);
  if (zone) problems.push(file.error(["timeZone"], zone));
  checkMediumName(input.name, file, ["name"], problems);
  checkServiceGenres(input.genres, file, problems);
  const language = input.language ?? provider?.language ?? "";
  checkTranslations(input, language, "the service", file, [], problems);
  if (provider) checkServiceNamesInLanguage(input, provider.language, file, problems);
  if (provider) checkGroupMembership(input.groups ?? [], provider.serviceGroups, file, problems);
  return {
    id: input.id,
    radiodns: {
      fqdn: input.radiodns?.fqdn ?? provider?.radiodnsHost ?? "",
      serviceIdentifier: input.radiodns?.serviceIdentifier ?? input.id,
    },
    name: input.name,
    description: input.description,
    language,
    timeZone: input.timeZone ?? provider?.timeZone ?? "",
    shortIds: input.shortIds ?? provider?.shortIds ?? "zero",
    shortIdSlot: input.shortIdSlot ?? defaultShortIdSlot(input.id),
    programmeEvents: input.programmeEvents ?? provider?.programmeEvents ?? true,
    fmCountry: input.fmCountry ?? provider?.discovery.fmCountry,
    logos: loadLogos(input.logos, file, problems, { fromSource: input.logo !== undefined }),
    genres: input.genres ?? [],
    keywords: input.keywords ?? [],
    links: input.links ?? [],
    translations: input.translations ?? {},
    geolocation: toGeolocation(input.geolocation),
    groups: input.groups ?? [],
    bearers: [
      ...(input.bearers?.dab ?? []).map((b) => ({ ...b, cost: b.cost ?? 20 })),
      ...(input.bearers?.fm ?? []).map((b) => ({ ...b, cost: b.cost ?? 50 })),
      ...(input.bearers?.hd ?? []),
      ...(input.bearers?.drm ?? []),
      ...(input.bearers?.amss ?? []),
    ],
    streams: (input.streams ?? []).map((s) => ({
      id: s.url,
      cost: s.cost ?? 100,
      mimeValue: s.mimeValue,
      bitrate: s.bitrate,
      offset: s.offset,
    })),
  };
}

/** Each group a service names must be one of the provider's, and named once. */
function checkGroupMembership(
  groups: readonly string[],
  serviceGroups: readonly ServiceGroup[],
  file: YamlFile,
  problems: InputProblem[],
) {
  const known = serviceGroups.map((group) => group.id);
  groups.forEach((id, i) => {
    if (!known.includes(id)) {
      const hint =
        didYouMean(id, known) || (known.length === 0 ? "; provider.yaml defines none" : "");
      problems.push(
        file.error(["groups", i], `"${id}" is not one of the provider's serviceGroups${hint}`),
      );
    } else if (groups.indexOf(id) < i) {
      problems.push(file.error(["groups", i], `"${id}" is named twice`));
    }
  });
}

export function toGeolocation(input: GeolocationInput | undefined): Geolocation | undefined {
  if (!input) return undefined;
  const countries = typeof input.country === "string" ? [input.country] : (input.country ?? []);
  return {
    countries: countries.map((code) => code.toUpperCase()),
    point: input.point,
    polygon: input.polygon,
  };
}
