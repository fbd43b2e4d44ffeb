import { lookupNamesOf, parseBroadcastBearer } from "../load/formats/radiodnsBearer.js";
import type { Broadcaster } from "../load/model/broadcaster.js";
import { authoritativeFqdns } from "../load/model/broadcaster.js";

/**
 * What the broadcaster must publish in DNS so radios find the site (TS 102 818 §10.2.2,
 * TS 103 270): SRV records at each Authoritative FQDN (the provider's and any service's own), and
 * the RadioDNS lookup names of every broadcast bearer, each to be registered with RadioDNS as a
 * CNAME to its service's FQDN.
 */
export interface DiscoveryRecords {
  /** The provider's Authoritative FQDN (`radiodnsHost`). */
  fqdn: string;
  /** Every Authoritative FQDN: the provider's, then the services' own (`radiodns.fqdn`). */
  fqdns: string[];
  srv: SrvRecord[];
  lookupNames: LookupName[];
}

export interface SrvRecord {
  /** `radiospi`: HTTPS, clients may send a key; `radioepg`: plain HTTP, never a key. */
  application: "radiospi" | "radioepg";
  name: string;
  priority: number;
  weight: number;
  port: number;
  target: string;
}

export interface LookupName {
  /** `0.4e01.4fe1.4e1.dab.radiodns.org` */
  name: string;
  /** The Authoritative FQDN it must be a CNAME to: its service's. */
  target: string;
  service: string;
  /** The bearer id it comes from, as in the data. */
  bearer: string;
}

/** An hour: resolvers keep the records that long, so a moved site reaches radios within the hour. */
export const RECORD_TTL_SECONDS = 3600;

export function discoveryRecordsOf(broadcaster: Broadcaster): DiscoveryRecords {
  const { radiodnsHost: fqdn, discovery } = broadcaster.provider;
  const fqdns = authoritativeFqdns(broadcaster);
  // One site serves every FQDN: each has the same SRV records, pointing at discovery.host.
  const srv: SrvRecord[] = [];
  for (const name of fqdns) {
    srv.push({
      application: "radiospi",
      name: `_radiospi._tcp.${name}`,
      priority: 0,
      weight: 100,
      port: discovery.httpsPort,
      target: discovery.host,
    });
    // The clients in use look only for _radioepg: without it they find not even the open SI.
    // They speak plain HTTP and send no key, so with keyed PI they get the SI and a 401 for PI,
    // which TS 102 818 §10.5.5 allows as the answer to a request without client identification.
    if (discovery.radioepg) {
      srv.push({
        application: "radioepg",
        name: `_radioepg._tcp.${name}`,
        priority: 0,
        weight: 100,
        port: discovery.httpPort,
        target: discovery.host,
      });
    }
  }
  const lookupNames: LookupName[] = [];
  for (const service of broadcaster.services) {
    for (const { id } of service.bearers) {
      const bearer = parseBroadcastBearer(id);
      if (!bearer) continue;
      for (const name of lookupNamesOf(bearer, service.fmCountry)) {
        lookupNames.push({ name, target: service.radiodns.fqdn, service: service.id, bearer: id });
      }
    }
  }
  return { fqdn, fqdns, srv, lookupNames };
}

/** The records in zone-file syntax (RFC 1035), absolute names, each lookup name commented. */
export function zoneFileText(records: DiscoveryRecords): string {
  const ttl = RECORD_TTL_SECONDS;
  const several = records.fqdns.length > 1;
  const hosts = several ? `each of ${records.fqdns.join(", ")}` : records.fqdn;
  const lines = [
    `; spi-static dns: what radios need to find ${hosts} (ETSI TS 102 818 §10.2.2, TS 103 270)`,
    ";",
    `; 1. Publish in the zone of ${hosts}: where the SPI application is served.`,
    ...records.srv.map(
      (r) =>
        `${r.name}. ${ttl} IN SRV ${r.priority} ${r.weight} ${r.port} ${r.target}. ; ${r.application}`,
    ),
    ";",
    `; 2. Register with RadioDNS: each lookup name a CNAME to ${several ? "its service's FQDN" : records.fqdn}.`,
    ...records.lookupNames.map(
      (l) => `${l.name}. ${ttl} IN CNAME ${l.target}. ; ${l.service} ${l.bearer}`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
