import { createHash } from "node:crypto";
import type { Provider, Service } from "../load/broadcaster.js";
import type { PlainDate } from "../time/plainDate.js";

/**
 * What a document is made from, as one SHA-256: a build whose inputs for a document equal the
 * last build's (and whose file is as that build left it) need not render it, for it would
 * render the same bytes apart from creationTime. Hashed from the validated model rather than
 * from files, so whatever the loader puts into a service (shows, grids, dated days, episodes,
 * translations) counts without a list of fields to keep up to date; the program's own
 * fingerprint is part of every key, so a new version renders everything again.
 */
export interface SiteInputs {
  /** A PI document: the program, the provider, the service and the day. */
  programmeInformation(service: Service, date: PlainDate): string;
  /** Both SI documents: the program, the provider and every service. */
  serviceInformation: string;
}

/** Each service's model is hashed once per build; a PI key adds its date to it. */
export function siteInputs(
  programVersion: string,
  provider: Provider,
  services: readonly Service[],
): SiteInputs {
  const shared = digest(`program ${programVersion}\0provider ${modelJson(provider)}`);
  const byService = new Map<Service, string>();
  for (const service of services) {
    byService.set(service, digest(`${shared}\0service ${modelJson(service)}`));
  }
  return {
    programmeInformation(service, date) {
      const inputs = byService.get(service);
      if (inputs === undefined) throw new Error(`no inputs for service ${service.id}`);
      return digest(`${inputs}\0day ${date}`);
    },
    serviceInformation: digest(`${shared}\0services ${[...byService.values()].join(",")}`),
  };
}

/** Extra inputs on top of a key, such as the SI entries `--keep-going` carries over. */
export function withInputs(inputs: string, extra: readonly string[]): string {
  return extra.length === 0 ? inputs : digest(`${inputs}\0${extra.join("\0")}`);
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/**
 * The model as JSON, Maps and Sets as their entries (the schedule's dated days are a Map). A
 * function in the model would vanish from the JSON, and a change behind it would then render
 * nothing: it is refused, so a model that grows one fails every build's tests at once. An
 * entry's `origin` (where in the YAML it was written) is left out: documents never show it, so
 * an edit that only moves lines renders nothing, and a file from the input cache is not parsed
 * to find its positions.
 */
function modelJson(value: unknown): string {
  return JSON.stringify(value, (key, item: unknown) => {
    if (key === "origin") return undefined;
    if (item instanceof Map) return { map: [...item] };
    if (item instanceof Set) return { set: [...item] };
    if (typeof item === "function" || typeof item === "symbol") {
      throw new Error(`the model holds a ${typeof item} at "${key}": its inputs cannot be hashed`);
    }
    return item;
  });
}
