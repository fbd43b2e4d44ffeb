import { createHash } from "node:crypto";
import type { Provider, Service } from "../model/broadcaster.js";
import type { ProviderInput } from "../schema/providerSchema.js";
import type { ServiceInput } from "../schema/serviceSchema.js";
import type { InputProblem } from "../text/inputProblem.js";
import type { YamlFile } from "../text/readYamlFile.js";
import type { LogoFolder } from "./logoSourceImage.js";
import { logosFromSource, madeLogoInputs, siteOrigin } from "./logosFromSource.js";

/**
 * The provider with the logos its `logo` source makes, and its groups' theirs. Its sources
 * take in the made logos' names, so every document is rendered again when one changes.
 */
export async function withProviderLogos(
  provider: Provider,
  input: ProviderInput,
  file: YamlFile,
  data: LogoFolder,
  problems: InputProblem[],
): Promise<Provider> {
  const site = siteOrigin(provider.discovery);
  const logos = await logosFromSource(
    input.logo,
    provider.logos,
    { file, at: [], folder: "provider", site },
    data,
    problems,
  );
  const serviceGroups = [];
  for (const group of provider.serviceGroups) {
    const at = ["serviceGroups", group.id];
    const groupLogos = await logosFromSource(
      input.serviceGroups?.[group.id]?.logo,
      group.logos,
      { file, at, folder: `groups/${group.id}`, site },
      data,
      problems,
    );
    serviceGroups.push({ ...group, logos: groupLogos });
  }
  const made = [...madeLogoInputs(logos), ...serviceGroups.flatMap((g) => madeLogoInputs(g.logos))];
  if (made.length === 0) return provider;
  const sources = createHash("sha256")
    .update([provider.sources, ...made].join("\0"))
    .digest("hex");
  return { ...provider, sources, logos, serviceGroups };
}

/** A service's fields with the logos its `logo` source makes (none without a provider). */
export async function withServiceLogos<T extends Pick<Service, "id" | "logos">>(
  fields: T,
  input: ServiceInput,
  provider: Provider | undefined,
  file: YamlFile,
  data: LogoFolder,
  problems: InputProblem[],
): Promise<T> {
  if (!provider || input.logo === undefined) return fields;
  const logos = await logosFromSource(
    input.logo,
    fields.logos,
    { file, at: [], folder: `services/${fields.id}`, site: siteOrigin(provider.discovery) },
    data,
    problems,
  );
  return { ...fields, logos };
}
