import { isIP } from "node:net";
import { quoted } from "../text/inputProblem.js";

/**
 * Why `host` cannot be the radiodnsHost, or undefined when it can. It is an authoritative FQDN
 * (TS 102 818 §10): a DNS name of lower-case labels, each 1–63 characters (RFC 1035), at most 253
 * in all, whose last label is a top-level domain (so never all digits: an IP address is refused).
 */
export function radiodnsHostProblem(host: string, field = "radiodnsHost"): string | undefined {
  if (isIP(host) !== 0 || /^\d+(\.\d+)*$/.test(host)) {
    return `${quoted(host)} is an IP address; ${field} must be a DNS name (e.g. rdns.example.com)`;
  }
  if (host.length > 253) return `is ${host.length} characters long; a DNS name has at most 253`;
  const labels = host.split(".");
  if (labels.length < 2)
    return `${quoted(host)} is not a fully qualified host name (e.g. rdns.example.com)`;
  for (const label of labels) {
    if (label.length > 63) {
      return `has a label of ${label.length} characters ("${label.slice(0, 12)}…"); a DNS label has at most 63`;
    }
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(label)) {
      return `${quoted(host)} is not a host name (lower-case letters, digits and - between dots)`;
    }
  }
  if (!/[a-z]/.test(labels.at(-1) ?? "")) {
    return `${quoted(host)} does not end in a top-level domain (e.g. rdns.example.com)`;
  }
  return undefined;
}
