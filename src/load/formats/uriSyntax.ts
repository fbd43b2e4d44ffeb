import { isIPv6 } from "node:net";

/**
 * RFC 3986 URI syntax, the grammar of xs:anyURI that the SPI schema checks links, bearer ids
 * and CRIDs against. Characters beyond ASCII are allowed as in an IRI: the schema validator
 * escapes them before it parses.
 */
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const UCS = "\\u{A0}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFEF}\\u{10000}-\\u{10FFFD}";
const PCT_ENCODED = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@${UCS}]|${PCT_ENCODED})`;
const SEGMENT = `${PCHAR}*`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:${UCS}]|${PCT_ENCODED})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}${UCS}]|${PCT_ENCODED})*`;
const AUTHORITY = `(?:${USERINFO}@)?(?<host>\\[[^\\]]*\\]|${REG_NAME})(?::(?<port>\\d*))?`;
const URI = new RegExp(
  `^(?<scheme>[A-Za-z][A-Za-z0-9+.-]*):(?:(?<authority>//${AUTHORITY})(?:/${SEGMENT})*|/?(?:${PCHAR}+(?:/${SEGMENT})*)?)(?:\\?${QUERY})?(?:#${QUERY})?$`,
  "u",
);

/** A URI's scheme (lower case) and host, or why it is not a URI. */
export type ParsedUri =
  | { ok: true; scheme: string; host: string | undefined }
  | { ok: false; reason: string };

export function parseUri(text: string): ParsedUri {
  const match = URI.exec(text);
  if (!match?.groups) return { ok: false, reason: whyNotUri(text) };
  const { scheme = "", authority, host, port } = match.groups;
  if (host?.startsWith("[") && !isIPv6(host.slice(1, -1))) {
    return { ok: false, reason: `${host} is not an IPv6 address` };
  }
  if (port !== undefined && port !== "" && Number(port) > 65535) {
    return { ok: false, reason: `port ${port} is beyond 65535` };
  }
  return {
    ok: true,
    scheme: scheme.toLowerCase(),
    host: authority === undefined ? undefined : host,
  };
}

function whyNotUri(text: string): string {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) return "has no scheme (such as https:)";
  const space = /\s/u.exec(text);
  if (space) return "contains white space (write a space as %20)";
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return "has a % not followed by two hex digits";
  const bracket = text.indexOf("[");
  if (bracket !== -1 && !text.includes("]", bracket)) return "has a [ without its ]";
  const odd = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%[\]\u{A0}-\u{10FFFD}]/u.exec(text)?.[0];
  if (odd) return `contains ${JSON.stringify(odd)}, which a URI must percent-encode`;
  return "is not a well-formed URI (RFC 3986)";
}
