import { createHash } from "node:crypto";
import { basename, join, relative } from "node:path";
import { radiodnsKey } from "../site/siteContract.js";
import { checkBearers } from "./checks/checkBearers.js";
import { checkMediumName } from "./checks/checkMediumName.js";
import { checkServiceGenres } from "./checks/checkServiceGenres.js";
import { checkServiceNamesInLanguage, checkTranslations } from "./checks/checkTranslations.js";
import { type DataFolder, openDataFolder, type UnreadableFile } from "./files/dataFolder.js";
import { type InputReader, type InputReaderOptions, openInputReader } from "./files/inputReader.js";
import { timeZoneProblem } from "./formats/ianaTimeZone.js";
import { SERVICE_ID_PATTERN } from "./formats/spiFormat.js";
import { type EpisodeList, loadSchedule } from "./loadSchedule.js";
import { loadLogos } from "./logos/loadLogos.js";
import { madeLogoInputs } from "./logos/logosFromSource.js";
import { withProviderLogos, withServiceLogos } from "./logos/modelLogos.js";
import type {
  Broadcaster,
  Geolocation,
  Provider,
  RadiodnsId,
  Schedule,
  Service,
  ServiceGroup,
} from "./model/broadcaster.js";
import { defaultShortIdSlot, ShortIdSlots, withSettledSlots } from "./model/shortIdSlot.js";
import type {
  GeolocationInput,
  InputKind,
  ProviderInput,
  ServiceGroupInput,
  ServiceInput,
} from "./schema/inputSchema.js";
import { didYouMean } from "./text/closestName.js";
import {
  boundProblem,
  formatSourceRef,
  type InputProblem,
  type SourceRef,
} from "./text/inputProblem.js";
import type { YamlFile } from "./text/readYamlFile.js";

/** What the load stage found in a data folder: the usable part and every problem. */
export interface LoadReport {
  /** The provider and every service without errors; undefined when the provider has errors. */
  broadcaster: Broadcaster | undefined;
  /** Errors and warnings, file by file in the order read; none quotes more than an excerpt. */
  problems: InputProblem[];
  /** Services left out for their errors: their id, or their file when the id is unusable. */
  brokenServices: string[];
}

/**
 * The load stage: reads `provider.yaml`, `services/*.yaml` and `schedules/<service id>.yaml`
 * from a data folder into the validated model, and reports every problem found with its file,
 * line, column and field. Each service stands or falls on its own.
 */
export async function loadBroadcaster(
  dataDir: string,
  options: InputReaderOptions = {},
): Promise<LoadReport> {
  const display = (path: string) => relative(process.cwd(), path) || path;
  const folder = await openDataFolder(dataDir);
  const inputs = openInputReader(folder, display, options);
  try {
    await inputs.prefetch(await dataFilesIn(folder, dataDir));
    return await loadFrom(dataDir, folder, inputs, display);
  } finally {
    await inputs.close();
  }
}

async function loadFrom(
  dataDir: string,
  folder: DataFolder,
  inputs: InputReader,
  display: (path: string) => string,
): Promise<LoadReport> {
  const problems: InputProblem[] = [];
  /** A data file's validated value, its problems put `into` the list they belong to. */
  const read = async <K extends InputKind>(kind: K, path: string, into: InputProblem[]) => {
    const result = await inputs.read(kind, path);
    if ("unreadable" in result) {
      into.push(unreadableProblem(display(path), result.unreadable));
      return { file: undefined, input: undefined, digest: undefined };
    }
    for (const problem of result.problems) into.push(problem);
    return result;
  };

  // A service's episode files: each read and checked on its own, the valid ones kept to be read
  // again whenever the service is laid out (Schedule.episodes).
  const readEpisodeFiles = async (dir: string, into: InputProblem[]) => {
    const listing = await listYaml(folder, dir, display, into);
    const files: { list: EpisodeList; digest: string }[] = [];
    for (const path of listing?.files ?? []) {
      const read = await inputs.readLater("episodes", path);
      if ("unreadable" in read) {
        into.push(unreadableProblem(display(path), read.unreadable));
        continue;
      }
      for (const problem of read.problems) into.push(problem);
      if (read.input)
        files.push({ list: { file: read.file, input: read.input }, digest: read.digest });
    }
    return files;
  };

  const {
    file: providerFile,
    input: providerInput,
    digest: providerDigest,
  } = await read("provider", join(dataDir, "provider.yaml"), problems);
  // Logos made from source images (issue 27): checked here (modelLogos.ts), made by src/logos.
  const logoData = { dataDir, folder, display };
  const provider =
    providerFile && providerInput && providerDigest !== undefined
      ? await withProviderLogos(
          toProvider(providerInput, providerFile, providerDigest, problems),
          providerInput,
          providerFile,
          logoData,
          problems,
        )
      : undefined;
  const providerIsValid = !problems.some((p) => p.severity === "error");

  const servicesDir = join(dataDir, "services");
  const serviceListing = await listYaml(folder, servicesDir, display, problems);
  const serviceFiles = serviceListing?.files;
  if (serviceListing && serviceListing.files.length === 0 && serviceListing.misnamed.length === 0) {
    problems.push(atFileStart(display(servicesDir), "has no service files (<id>.yaml)"));
  }

  const services: Service[] = [];
  const brokenServices: string[] = [...(serviceListing?.misnamed ?? [])];
  const idsInUse = new Map<string, string>();
  // The schedule names a service file stands for, even one too broken to give its id.
  const claimed = new Set<string>();
  // CRIDs written in the YAML, with the special first giving each: a client would merge two
  // programmes sharing one.
  const givenCrids = new Map<string, SourceRef>();
  // Each DAB/FM bearer with the service file that claimed it first: a radio tuned to it must
  // find one service, so the edge rules can map its PI path to one.
  const bearersInUse = new Map<string, () => SourceRef>();
  const idsInRadiodns = new Map<string, string>();
  // The service groups some service joins, broken services included: the rest have no members.
  const groupsInUse = new Set<string>();
  // The GCCs of the FM bearers that take the provider's fmCountry, with a service of each.
  const defaultCountryGccs = new Map<string, string>();
  // Services with unique shortIds share the provider's range (TS 102 818 §5.2.2), a slot each.
  const shortIdSlots = new ShortIdSlots();
  for (const path of serviceFiles ?? []) {
    const own: InputProblem[] = [];
    const { file, input, digest } = await read("service", path, own);
    // A service file with errors still names its schedule, which is checked all the same.
    for (const group of input?.groups ?? []) groupsInUse.add(group);
    // The raw value only when the file has errors: from the input cache it would be parsed.
    const rawId = input ? undefined : (file?.value as { id?: unknown } | undefined)?.id;
    const id = input?.id ?? (typeof rawId === "string" ? rawId : undefined);
    claimed.add(basename(path).replace(/\.yaml$/, ""));
    if (id !== undefined) claimed.add(id);

    const earlier = id === undefined ? undefined : idsInUse.get(id);
    if (file && input && earlier) {
      own.push(file.error(["id"], `service id "${input.id}" is also used in ${earlier}`));
    }
    let service: Service | undefined;
    if (id !== undefined && !earlier && SERVICE_ID_PATTERN.test(id)) {
      if (file) idsInUse.set(id, file.file);
      const fields =
        file &&
        input &&
        (await withServiceLogos(
          toServiceFields(input, provider, file, own),
          input,
          provider,
          file,
          logoData,
          own,
        ));
      if (file && input) own.push(...checkBearers(input, file, bearersInUse));
      if (input && input.fmCountry === undefined) {
        for (const { id: bearer } of input.bearers?.fm ?? []) {
          const gcc = bearer.slice(3, 6);
          if (!defaultCountryGccs.has(gcc)) defaultCountryGccs.set(gcc, input.id);
        }
      }
      if (file && input && fields?.shortIds === "unique") {
        const at = file.locateKey(input.shortIdSlot === undefined ? ["id"] : ["shortIdSlot"]);
        const taken = shortIdSlots.take(input, fields.radiodns.fqdn, file.file, at);
        if (taken) own.push(taken);
      }
      if (file && fields) own.push(...claimRadiodnsId(fields.radiodns, input, file, idsInRadiodns));
      const schedulePath = join(dataDir, "schedules", `${id}.yaml`);
      const scheduleRead = await inputs.read("schedule", schedulePath);
      const scheduleFile = "file" in scheduleRead ? scheduleRead.file : undefined;
      if ("unreadable" in scheduleRead) {
        const { unreadable } = scheduleRead;
        // A missing schedule is the service's mistake; any other reason is the schedule file's.
        if (!unreadable.missing) own.push(unreadableProblem(display(schedulePath), unreadable));
        else if (file && input) {
          own.push(file.error(["id"], `has no schedule: schedules/${id}.yaml is missing`));
        }
      } else {
        for (const problem of scheduleRead.problems) own.push(problem);
      }
      const scheduleInput = "input" in scheduleRead ? scheduleRead.input : undefined;
      const episodeFiles = await readEpisodeFiles(join(dataDir, "episodes", id), own);
      const schedule =
        scheduleFile &&
        scheduleInput &&
        loadSchedule(
          scheduleInput,
          scheduleFile,
          own,
          episodeFiles.map(({ list }) => list),
          fields?.language,
        );
      if (schedule) own.push(...repeatedCrids(schedule, givenCrids));
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
    }
    // Not push(...own): a file of 100k shows has more warnings than a call takes arguments.
    for (const problem of own) problems.push(problem);
    if (service && !own.some((p) => p.severity === "error")) services.push(service);
    else brokenServices.push(id ?? display(path));
  }

  const settled = shortIdSlots.settle();
  for (const { service, problem } of settled.problems) {
    problems.push(problem);
    if (problem.severity !== "error") continue;
    services.splice(
      services.findIndex((s) => s.id === service),
      1,
    );
    brokenServices.push(service);
  }
  const slotted = withSettledSlots(services, settled.slots);

  const fmCountry = provider?.discovery.fmCountry;
  if (fmCountry !== undefined && providerFile && defaultCountryGccs.size > 1) {
    // One country, one GCC (its country id and ECC): two GCCs are most likely two countries.
    const gccs = [...defaultCountryGccs].map(([gcc, service]) => `${gcc} (${service})`);
    problems.push({
      ...providerFile.locate(["discovery", "fmCountry"]),
      severity: "warning",
      message: `applies to FM bearers of ${gccs.length} GCCs, ${gccs.join(", ")}: if they are in different countries, give those services their own fmCountry, or a radio there looks them up under ${fmCountry}`,
    });
  }

  for (const group of serviceFiles ? (provider?.serviceGroups ?? []) : []) {
    if (groupsInUse.has(group.id) || !providerFile) continue;
    problems.push({
      ...providerFile.locateKey(["serviceGroups", group.id]),
      severity: "warning",
      message:
        "has no member: no service names it in groups, and receivers do not show an empty group (TS 102 818 §6.9)",
    });
  }

  const scheduleListing = await listYaml(folder, join(dataDir, "schedules"), display, problems);
  for (const path of scheduleListing?.files ?? []) {
    const id = basename(path).replace(/\.yaml$/, "");
    // Without the list of services, no schedule can be said to belong to none.
    if (serviceFiles && !claimed.has(id)) {
      problems.push({
        ...atFileStart(display(path), `belongs to no service (no services/*.yaml has id "${id}")`),
        severity: "warning",
      });
    }
  }

  const episodeFolders = await folder.list(join(dataDir, "episodes"));
  for (const name of "names" in episodeFolders ? episodeFolders.names : []) {
    if (serviceFiles && !claimed.has(name)) {
      problems.push({
        ...atFileStart(
          display(join(dataDir, "episodes", name)),
          name.endsWith(".yaml")
            ? "is not in a service's folder: episode files go in episodes/<service id>/"
            : `belongs to no service (no services/*.yaml has id "${name}")`,
        ),
        severity: "warning",
      });
    }
  }

  slotted.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    broadcaster: provider && providerIsValid ? { provider, services: slotted } : undefined,
    // Everything a message says about the files leaves the load stage here, bounded.
    problems: problems.map(boundProblem),
    brokenServices,
  };
}

/**
 * Every data file a load may read, for reading ahead: provider.yaml, services/*.yaml,
 * schedules/*.yaml and episodes/<id>/*.yaml. Only listed here; what is wrong with a folder or a
 * name is reported where the load reads it.
 */
async function dataFilesIn(
  folder: DataFolder,
  dataDir: string,
): Promise<{ kind: InputKind; path: string }[]> {
  const yamlIn = async (dir: string) => {
    const listing = await folder.list(dir);
    const names = "names" in listing ? listing.names : [];
    return names.filter((name) => name.endsWith(".yaml")).map((name) => join(dir, name));
  };
  const episodesDir = join(dataDir, "episodes");
  const episodeFolders = await folder.list(episodesDir);
  const episodeFiles = await Promise.all(
    ("names" in episodeFolders ? episodeFolders.names : []).map((name) =>
      yamlIn(join(episodesDir, name)),
    ),
  );
  return [
    { kind: "provider" as const, path: join(dataDir, "provider.yaml") },
    ...(await yamlIn(join(dataDir, "services"))).map((path) => ({
      kind: "service" as const,
      path,
    })),
    ...(await yamlIn(join(dataDir, "schedules"))).map((path) => ({
      kind: "schedule" as const,
      path,
    })),
    ...episodeFiles.flat().map((path) => ({ kind: "episodes" as const, path })),
  ];
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

function unreadableProblem(file: string, { line, column, message }: UnreadableFile): InputProblem {
  return { file, line, column, field: "", severity: "error", message };
}

function atFileStart(file: string, message: string): InputProblem {
  return { file, line: 1, column: 1, field: "", severity: "error", message };
}

/**
 * The `.yaml` files of a folder, and its `.yml` files (shown as `display` does), each reported
 * as an error rather than ignored: every file spi-static reads is named `.yaml` (provider.yaml,
 * schedules/<id>.yaml), so one spelling holds everywhere. Undefined, with a problem, when the
 * folder cannot be listed; a folder that does not exist has no files.
 */
async function listYaml(
  folder: DataFolder,
  dir: string,
  display: (path: string) => string,
  problems: InputProblem[],
): Promise<{ files: string[]; misnamed: string[] } | undefined> {
  const listing = await folder.list(dir);
  if ("reason" in listing) {
    problems.push(atFileStart(display(dir), listing.reason));
    return undefined;
  }
  const names = "names" in listing ? listing.names : [];
  const misnamed = names.filter((name) => name.endsWith(".yml")).map((n) => display(join(dir, n)));
  for (const path of misnamed) {
    const renamed = basename(path).replace(/\.yml$/, ".yaml");
    problems.push(
      atFileStart(
        path,
        `is a .yml file: rename it to ${renamed} (spi-static reads only .yaml files)`,
      ),
    );
  }
  const files = names.filter((name) => name.endsWith(".yaml")).map((name) => join(dir, name));
  return { files, misnamed };
}

function toProvider(
  input: ProviderInput,
  file: YamlFile,
  sources: string,
  problems: InputProblem[],
): Provider {
  const zone = timeZoneProblem(input.timeZone);
  if (zone) problems.push(file.error(["timeZone"], zone));
  checkMediumName(input.name, file, ["name"], problems);
  checkTranslations(input, input.language, "the provider", file, [], problems);
  return {
    sources,
    name: input.name,
    description: input.description,
    originator: input.originator,
    language: input.language,
    timeZone: input.timeZone,
    radiodnsHost: input.radiodnsHost,
    cridAuthority: input.cridAuthority,
    piMarginHours: input.piMarginHours ?? 6,
    shortIds: input.shortIds ?? "zero",
    programmeEvents: input.programmeEvents ?? true,
    logos: loadLogos(input.logos, file, problems, { fromSource: input.logo !== undefined }),
    links: input.links ?? [],
    keywords: input.keywords ?? [],
    translations: input.translations ?? {},
    geolocation: toGeolocation(input.geolocation),
    serviceGroups: Object.entries(input.serviceGroups ?? {}).map(([id, group]) =>
      toServiceGroup(id, group, input.language, file, problems),
    ),
    discovery: {
      host: input.discovery?.host ?? input.radiodnsHost,
      httpsPort: input.discovery?.httpsPort ?? 443,
      httpPort: input.discovery?.httpPort ?? 80,
      openPi: input.discovery?.pi === "open",
      radioepg: input.discovery?.radioepg ?? true,
      fmCountry: input.discovery?.fmCountry,
    },
  };
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

function toServiceGroup(
  id: string,
  input: ServiceGroupInput,
  language: string,
  file: YamlFile,
  problems: InputProblem[],
): ServiceGroup {
  const at = ["serviceGroups", id];
  checkMediumName(input.name, file, [...at, "name"], problems);
  checkTranslations(input, language, "the group", file, at, problems);
  return {
    id,
    name: input.name,
    description: input.description,
    logos: loadLogos(input.logos, file, problems, {
      at,
      optional: true,
      fromSource: input.logo !== undefined,
    }),
    genres: input.genres ?? [],
    keywords: input.keywords ?? [],
    links: input.links ?? [],
    translations: input.translations ?? {},
    geolocation: toGeolocation(input.geolocation),
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

function toGeolocation(input: GeolocationInput | undefined): Geolocation | undefined {
  if (!input) return undefined;
  const countries = typeof input.country === "string" ? [input.country] : (input.country ?? []);
  return {
    countries: countries.map((code) => code.toUpperCase()),
    point: input.point,
    polygon: input.polygon,
  };
}
