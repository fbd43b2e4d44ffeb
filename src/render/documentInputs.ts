import { createHash } from "node:crypto";
import type { Provider, Service } from "../load/model/broadcaster.js";
import type { PlainDate } from "../time/plainDate.js";

/**
 * What a document is made from, as one SHA-256: a build whose inputs for a document equal the
 * last build's (and whose file is as that build left it) need not render it, for it would
 * render the same bytes apart from creationTime. Made from the digests of the data files the
 * loader made the model from (Provider.sources, Service.sources: a service's model is made
 * from its own files and provider.yaml alone) and the program's own fingerprint, so a new
 * version renders everything again. Any edit of a file counts, a comment too: its documents are
 * rendered and compared, and written only if their bytes differ.
 */
export interface SiteInputs {
  /** A PI document: the program, the provider, the service and the day. */
  programmeInformation(service: Service, date: PlainDate): string;
  /** Both SI documents: the program, the provider and every service. */
  serviceInformation: string;
}

export function siteInputs(
  programVersion: string,
  provider: Provider,
  services: readonly Service[],
): SiteInputs {
  const byService = new Map<Service, string>();
  for (const service of services) {
    byService.set(service, serviceInputs(programVersion, provider, service));
  }
  return {
    programmeInformation(service, date) {
      const inputs = byService.get(service);
      if (inputs === undefined) throw new Error(`no inputs for service ${service.id}`);
      return programmeInformationInputs(inputs, date);
    },
    serviceInformation: digest(
      `${providerInputs(programVersion, provider)}\0services ${[...byService.values()].join(",")}`,
    ),
  };
}

/** What all of a service's PI documents are made from: the program, the provider and its files. */
export function serviceInputs(
  programVersion: string,
  provider: Provider,
  service: Service,
): string {
  return digest(
    `${providerInputs(programVersion, provider)}\0service ${service.id} ${service.sources}`,
  );
}

/** A PI document's inputs: its service's (serviceInputs) and its day. */
export function programmeInformationInputs(serviceInputs: string, date: PlainDate): string {
  return digest(`${serviceInputs}\0day ${date}`);
}

function providerInputs(programVersion: string, provider: Provider): string {
  return digest(`program ${programVersion}\0provider ${provider.sources}`);
}

/** Extra inputs on top of a key, such as the SI entries `--keep-going` carries over. */
export function withInputs(inputs: string, extra: readonly string[]): string {
  return extra.length === 0 ? inputs : digest(`${inputs}\0${extra.join("\0")}`);
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
