import type { PlainDate } from "../../time/plainDate.js";
import type { ServiceKey } from "./feedModel.js";

/**
 * What a PI document's path (a file below a folder, or a URL) says: which service, which day.
 * The SPI layout: `…/id/<fqdn>/<serviceId>/<yyyyMMdd>_PI.xml`, or a bearer's
 * `…/dab/<gcc>/<eid>/<sid>/<scids>/<date>_PI.xml` and `…/fm/<gcc>/<pi>/<frequency>/<date>_PI.xml`.
 */
export function locateProgrammeInformation(path: string): {
  serviceKey: ServiceKey | undefined;
  day: PlainDate | undefined;
} {
  const parts = path.split(/[\\/]/);
  const name = parts[parts.length - 1] ?? "";
  const dated = /^(\d{4})(\d{2})(\d{2})_PI\.xml$/.exec(name);
  const day = dated ? `${dated[1]}-${dated[2]}-${dated[3]}` : undefined;
  const folders = parts.slice(0, -1);
  const at = (from: number) => folders.slice(folders.length - from);
  const [idMark, fqdn, serviceIdentifier] = at(3);
  if (idMark === "id" && fqdn && serviceIdentifier) {
    return { serviceKey: { kind: "id", fqdn: fqdn.toLowerCase(), serviceIdentifier }, day };
  }
  const [dab, ...dabParts] = at(5);
  if (dab === "dab" && dabParts.length === 4) {
    return { serviceKey: { kind: "bearer", bearerId: `dab:${dabParts.join(".")}` }, day };
  }
  const [fm, ...fmParts] = at(4);
  if (fm === "fm" && fmParts.length === 3) {
    return { serviceKey: { kind: "bearer", bearerId: `fm:${fmParts.join(".")}` }, day };
  }
  return { serviceKey: undefined, day };
}
