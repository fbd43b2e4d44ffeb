import { quoted } from "../text/inputProblem.js";

/**
 * The links that let a listener call, text, mail or write to a station (TS 102 818 Annex A:
 * tel RFC 3966, sms RFC 5724, mailto RFC 6068, postal clause A.1). A generic URI check lets
 * through what a phone or mail client cannot use (`tel:031 123`, `mailto:studio`), so each is
 * held to its own grammar.
 */
export const CONTACT_SCHEMES = ["tel", "sms", "mailto", "postal"] as const;
export type ContactScheme = (typeof CONTACT_SCHEMES)[number];

const VISUAL = "\\-.()";
const GLOBAL_NUMBER = `\\+[0-9${VISUAL}]*[0-9][0-9${VISUAL}]*`;
const LOCAL_NUMBER = `[0-9A-Fa-f*#${VISUAL}]*[0-9A-Fa-f*#][0-9A-Fa-f*#${VISUAL}]*`;
const PARAMETER = ";[A-Za-z0-9-]+(?:=[^;,?]+)?";
const TELEPHONE = new RegExp(`^(?:(${GLOBAL_NUMBER})|(${LOCAL_NUMBER}))((?:${PARAMETER})*)$`);
const HEADER_FIELDS = /^[A-Za-z0-9-]+=[^&]*(?:&[A-Za-z0-9-]+=[^&]*)*$/;
const ADDRESS = /^[^@,?\s]+@[^@,?\s]+\.[^@,?\s.]+$/;
const POSTAL_CHAR = "(?:[A-Za-z0-9\\-._~]|%[0-9A-Fa-f]{2})";
const POSTAL = new RegExp(`^${POSTAL_CHAR}+(?:/${POSTAL_CHAR}*)*$`);

/** Why `uri`, of one of the contact schemes, reaches no one, or undefined when it is fine. */
export function contactUriProblem(scheme: ContactScheme, uri: string): string | undefined {
  const rest = uri.slice(scheme.length + 1);
  switch (scheme) {
    case "tel":
      return telephoneProblem(uri, rest, "tel");
    case "sms": {
      const [recipients = "", fields] = splitOnce(rest, "?");
      if (fields !== undefined && !HEADER_FIELDS.test(fields)) {
        return `${quoted(uri)} has a query that is not name=value pairs (e.g. sms:+41791234567?body=Hello)`;
      }
      for (const recipient of recipients.split(",")) {
        const problem = telephoneProblem(uri, recipient, "sms");
        if (problem) return problem;
      }
      return undefined;
    }
    case "mailto": {
      const [addresses = "", fields] = splitOnce(rest, "?");
      if (fields !== undefined && !HEADER_FIELDS.test(fields)) {
        return `${quoted(uri)} has a query that is not name=value pairs (e.g. ?subject=Hello)`;
      }
      const bad = addresses.split(",").find((address) => !ADDRESS.test(address));
      if (bad !== undefined) {
        return `${quoted(uri)} needs an e-mail address (mailto:studio@radio.example)${bad ? `, not ${quoted(bad)}` : ""}`;
      }
      return undefined;
    }
    case "postal":
      if (POSTAL.test(rest)) return undefined;
      if (rest === "")
        return `${quoted(uri)} has no address (postal:Aare%20Radio/Bahnhofplatz%201/3011%20Bern)`;
      return `${quoted(uri)} is not a postal address URI (TS 102 818 A.1: parts separated by /, each percent-encoded): write ${quoted(`postal:${encodePostal(rest)}`)}`;
  }
}

function telephoneProblem(uri: string, number: string, scheme: "tel" | "sms"): string | undefined {
  if (/\s/.test(number)) {
    return `${quoted(uri)} has white space: separate the digits with - (${scheme}:+41-31-123-45-67)`;
  }
  const match = TELEPHONE.exec(number);
  if (!match) {
    return `${quoted(uri)} is not a telephone number (RFC 3966: ${scheme}:+41-31-123-45-67)`;
  }
  const [, global, , parameters = ""] = match;
  // A local number means nothing without its context; SMS short codes (sms:83958) are local by
  // nature and used that way in TS 102 818's own examples.
  if (global === undefined && scheme === "tel" && !parameters.includes(";phone-context=")) {
    return `${quoted(uri)} is a local number: write it in international form (tel:+41-31-123-45-67) or add ;phone-context=`;
  }
  return undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** Each part between slashes percent-encoded down to the unreserved characters. */
function encodePostal(address: string): string {
  return address
    .split("/")
    .map((part) => {
      let decoded = part;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        // A stray % stays as it is and is encoded below.
      }
      return encodeURIComponent(decoded).replace(
        /[!'()*]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    })
    .join("/");
}
