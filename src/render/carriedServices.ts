import { radiodnsKey } from "../site/siteContract.js";

/**
 * A service that broke overnight keeps its entry in SI (`build --keep-going`): its `<service>`
 * element is taken from the SI document published last night and carried into tonight's. Both
 * are written by this program, so each entry is one `<service>` element with its radiodns id.
 */

/**
 * The `<service>` elements of a published SI document whose radiodns key (`<fqdn>/<serviceIdentifier>`,
 * siteContract's radiodnsKey) is in `keys`, by key.
 */
export function serviceEntries(si: string, keys: ReadonlySet<string>): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [element] of si.matchAll(/^ *<service>\n[\s\S]*?^ *<\/service>\n/gm)) {
    const radiodns = /<radiodns\b[^>]*>/.exec(element)?.[0] ?? "";
    const fqdn = /\bfqdn="([^"]+)"/.exec(radiodns)?.[1];
    const id = /\bserviceIdentifier="([^"]+)"/.exec(radiodns)?.[1];
    if (fqdn === undefined || id === undefined) continue;
    const key = radiodnsKey({ fqdn, serviceIdentifier: id });
    if (keys.has(key)) entries.set(key, element);
  }
  return entries;
}

/** `si` with `entries` added after its last service (the schema allows services in any order). */
export function withServiceEntries(si: Buffer, entries: string[]): Buffer {
  if (entries.length === 0) return si;
  const text = si.toString("utf8");
  const end = text.lastIndexOf("</services>");
  const lineStart = text.lastIndexOf("\n", end) + 1;
  return Buffer.from(text.slice(0, lineStart) + entries.join("") + text.slice(lineStart), "utf8");
}
