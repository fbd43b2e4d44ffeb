import { basename, join, relative } from "node:path";
import { checkMediumName } from "./checks/checkMediumName.js";
import { checkTranslations } from "./checks/checkTranslations.js";
import {
  atFileStart,
  type DataFiles,
  dataFilesIn,
  listYaml,
  readDataFile,
} from "./files/dataFiles.js";
import { openDataFolder } from "./files/dataFolder.js";
import { type InputReaderOptions, openInputReader } from "./files/inputReader.js";
import { timeZoneProblem } from "./formats/ianaTimeZone.js";
import { loadService, ServiceClaims, toGeolocation } from "./loadService.js";
import { loadLogos } from "./logos/loadLogos.js";
import { withProviderLogos } from "./logos/modelLogos.js";
import type { Broadcaster, Provider, Service, ServiceGroup } from "./model/broadcaster.js";
import { withSettledSlots } from "./model/shortIdSlot.js";
import type { ProviderInput, ServiceGroupInput } from "./schema/providerSchema.js";
import { boundProblem, type InputProblem } from "./text/inputProblem.js";
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
    return await loadFrom({ dataDir, folder, inputs, display });
  } finally {
    await inputs.close();
  }
}

async function loadFrom(files: DataFiles): Promise<LoadReport> {
  const { dataDir, display } = files;
  const problems: InputProblem[] = [];
  const providerRead = await readDataFile(
    files,
    "provider",
    join(dataDir, "provider.yaml"),
    problems,
  );
  const { file: providerFile, input: providerInput, digest: providerDigest } = providerRead;
  // Logos made from source images (issue 27): checked here (modelLogos.ts), made by src/logos.
  const provider =
    providerFile && providerInput && providerDigest !== undefined
      ? await withProviderLogos(
          toProvider(providerInput, providerFile, providerDigest, problems),
          providerInput,
          providerFile,
          files,
          problems,
        )
      : undefined;
  const providerIsValid = !problems.some((p) => p.severity === "error");

  const servicesDir = join(dataDir, "services");
  const serviceListing = await listYaml(files, servicesDir, problems);
  const serviceFiles = serviceListing?.files;
  if (serviceListing && serviceListing.files.length === 0 && serviceListing.misnamed.length === 0) {
    problems.push(atFileStart(display(servicesDir), "has no service files (<id>.yaml)"));
  }
  const services: Service[] = [];
  const brokenServices: string[] = [...(serviceListing?.misnamed ?? [])];
  const claims = new ServiceClaims();
  for (const path of serviceFiles ?? []) {
    const loaded = await loadService(files, path, provider, claims);
    // Not push(...own): a file of 100k shows has more warnings than a call takes arguments.
    for (const problem of loaded.problems) problems.push(problem);
    if (loaded.service) services.push(loaded.service);
    else brokenServices.push(loaded.id ?? display(path));
  }
  const settled = claims.shortIdSlots.settle();
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
  if (provider && providerFile) {
    problems.push(...fmCountryWarnings(provider, providerFile, claims));
    // Without the list of services, no group can be said to have no member.
    if (serviceFiles) problems.push(...emptyGroupWarnings(provider, providerFile, claims));
  }
  problems.push(...(await strayFileWarnings(files, serviceFiles && claims)));

  slotted.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return {
    broadcaster: provider && providerIsValid ? { provider, services: slotted } : undefined,
    // Everything a message says about the files leaves the load stage here, bounded.
    problems: problems.map(boundProblem),
    brokenServices,
  };
}

/** One country, one GCC (its country id and ECC): two GCCs are most likely two countries. */
function fmCountryWarnings(
  provider: Provider,
  file: YamlFile,
  { defaultCountryGccs }: ServiceClaims,
): InputProblem[] {
  const fmCountry = provider.discovery.fmCountry;
  if (fmCountry === undefined || defaultCountryGccs.size <= 1) return [];
  const gccs = [...defaultCountryGccs].map(([gcc, service]) => `${gcc} (${service})`);
  return [
    {
      ...file.locate(["discovery", "fmCountry"]),
      severity: "warning",
      message: `applies to FM bearers of ${gccs.length} GCCs, ${gccs.join(", ")}: if they are in different countries, give those services their own fmCountry, or a radio there looks them up under ${fmCountry}`,
    },
  ];
}

function emptyGroupWarnings(
  provider: Provider,
  file: YamlFile,
  claims: ServiceClaims,
): InputProblem[] {
  return provider.serviceGroups
    .filter((group) => !claims.groups.has(group.id))
    .map((group) => ({
      ...file.locateKey(["serviceGroups", group.id]),
      severity: "warning",
      message:
        "has no member: no service names it in groups, and receivers do not show an empty group (TS 102 818 §6.9)",
    }));
}

/**
 * Schedules and episode folders that no service file stands for, and misnamed schedules.
 * Without the list of services (no `claims`), no file can be said to belong to none.
 */
async function strayFileWarnings(
  files: DataFiles,
  claims: ServiceClaims | undefined,
): Promise<InputProblem[]> {
  const { dataDir, display } = files;
  const problems: InputProblem[] = [];
  const stray = (path: string, message: string) =>
    problems.push({ ...atFileStart(display(path), message), severity: "warning" });
  const scheduleListing = await listYaml(files, join(dataDir, "schedules"), problems);
  for (const path of scheduleListing?.files ?? []) {
    const id = basename(path).replace(/\.yaml$/, "");
    if (claims && !claims.names.has(id))
      stray(path, `belongs to no service (no services/*.yaml has id "${id}")`);
  }
  const episodeFolders = await files.folder.list(join(dataDir, "episodes"));
  for (const name of "names" in episodeFolders ? episodeFolders.names : []) {
    if (!claims || claims.names.has(name)) continue;
    stray(
      join(dataDir, "episodes", name),
      name.endsWith(".yaml")
        ? "is not in a service's folder: episode files go in episodes/<service id>/"
        : `belongs to no service (no services/*.yaml has id "${name}")`,
    );
  }
  return problems;
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
